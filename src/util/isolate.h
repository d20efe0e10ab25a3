/*
 * isolate.h - run a foreign library's parser (libhwloc, libtracecmd) in a
 * forked child, so that whatever bytes it is fed, a crash inside it is an
 * error message for the user, not the end of wakesim. The child writes
 * its answer into a pipe; the parent reads it, then reaps the child.
 */
#ifndef WS_ISOLATE_H
#define WS_ISOLATE_H

#include <stdbool.h>
#include <sys/types.h>

struct isolate {
	pid_t pid;
	int fd;		/* the child's write end, or the parent's read end */
};

/*
 * Fork. Returns 1 in the child (is->fd to write to; fatal signals exit
 * with a code isolate_end() recognises; stderr goes to /dev/null unless
 * the environment variable verbose_env is set; finish with _exit()),
 * 0 in the parent (is->fd to read from), or -1 with errno when pipe() or
 * fork() failed.
 */
int isolate_start(struct isolate *is, const char *verbose_env);
/*
 * In the parent, after reading: close the pipe and reap the child.
 * Returns 0 if it exited with status 0, else -1, with *crashed set when
 * it died of a signal.
 */
int isolate_end(struct isolate *is, bool *crashed);

#endif
