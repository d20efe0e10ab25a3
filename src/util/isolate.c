/*
 * isolate.c - a parser in a child process (isolate.h).
 */
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fault inside the library: the child's end, told apart by its status. */
#define CHILD_CRASHED 3

static void child_fault(int sig)
{
	(void)sig;
	_exit(CHILD_CRASHED);
}

int isolate_start(struct isolate *is, const char *verbose_env)
{
	int fds[2];

	if (pipe(fds))
		return -1;
	fflush(NULL);
	is->pid = fork();
	if (is->pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	if (is->pid) {
		close(fds[1]);
		is->fd = fds[0];
		return 0;
	}
	struct sigaction sa = { .sa_handler = child_fault };
	const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

	/* Ours, not a sanitizer's: a crash here is an answer, not a report. */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	close(fds[0]);
	is->fd = fds[1];
	if (!verbose_env || !getenv(verbose_env)) {
		int dn = open("/dev/null", O_WRONLY);

		if (dn >= 0)
			dup2(dn, 2);
	}
	return 1;
}

int isolate_end(struct isolate *is, bool *crashed)
{
	int st;

	close(is->fd);
	while (waitpid(is->pid, &st, 0) < 0 && errno == EINTR)
		;
	*crashed = WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == CHILD_CRASHED);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
