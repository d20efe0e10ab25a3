/*
 * textfile.h - read a whole input text file, refusing what is not one.
 */
#ifndef WS_TEXTFILE_H
#define WS_TEXTFILE_H

#include <stddef.h>

/*
 * Read path, a regular text file of at most 16 MiB, into *text
 * (NUL-terminated, malloc: free it) and its length in bytes into *len.
 * Returns 0, or -1 with err "PATH: why" (missing, not a regular file,
 * larger than a WHAT may be, unreadable, a NUL byte, out of memory).
 */
int text_file_read(const char *path, const char *what, char **text, size_t *len, char *err,
		   size_t errlen);

#endif
