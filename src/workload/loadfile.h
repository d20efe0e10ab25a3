/*
 * loadfile.h - dbench/tbench load files (dbench 4: child.c reads them,
 * sockio.c turns each operation into one request/response exchange).
 *
 * A line is "[TIMESTAMP] OPERATION ARGS... STATUS"; lines starting with
 * '#' or with fewer than two words are skipped; STATUS is NT_STATUS_* or
 * 0x... . Each operation becomes the request and response sizes sockio.c
 * sends for it (docs/workloads.md has the table), computed for the
 * file's own paths ("\clients\client1\..."); a client whose name is
 * longer adds two bytes per path per extra character, as the request
 * carries paths in UTF-16.
 */
#ifndef WS_LOADFILE_H
#define WS_LOADFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nb_op {
	NB_NTCREATEX, NB_CLOSE, NB_RENAME, NB_UNLINK, NB_DELTREE, NB_RMDIR, NB_MKDIR,
	NB_QPATHINFO, NB_QFILEINFO, NB_QFSINFO, NB_SFILEINFO, NB_FINDFIRST, NB_WRITEX,
	NB_READX, NB_LOCKX, NB_UNLOCKX, NB_FLUSH, NB_SLEEP, NB_NR_OPS,
};

struct nb_line {
	uint32_t req, resp;	/* bytes sent and received; 0: no exchange */
	uint32_t payload;	/* WriteX/ReadX bytes counted in MB/s */
	uint32_t sleep_us;	/* Sleep: local usleep() */
	uint64_t stamp_us;	/* leading timestamp: when into the pass to start */
	uint8_t op;		/* enum nb_op */
	uint8_t npaths;		/* paths in the request (UTF-16 length scales) */
	uint8_t stamped;	/* the line had a timestamp */
};

struct loadfile {
	char *path;
	struct nb_line *line;
	int nr_lines;
	int refs;
	/* The file as read: a cached copy is reused only if these still match. */
	unsigned long long dev, ino, size;
	long long mtime_ns;
};

/* Names in load files, and the shorter ones dbench's latency table prints. */
extern const char *const nb_op_name[NB_NR_OPS];
extern const char *const nb_op_label[NB_NR_OPS];

/*
 * Read and convert a load file. Returns NULL with "FILE:LINE: why" in err
 * for an unreadable file, an unknown operation, a missing argument or a
 * bad number. Files are cached by path (a comparison creates one workload
 * per run): loadfile_put() drops a reference.
 */
struct loadfile *loadfile_get(const char *path, char *err, size_t errlen);
void loadfile_put(struct loadfile *lf);

/* Where dbench's packages put the default load file. */
#define LOADFILE_DEFAULT "/usr/share/dbench/client.txt"

#endif
