/*
 * progress.c - the bar of progress.h.
 */
#include "progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 30

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_format(char *buf, size_t len, int done, int total, double elapsed,
		     const char *what)
{
	char bar[BAR_WIDTH + 1], eta[32] = "ETA --:--";
	int fill = total > 0 ? done * BAR_WIDTH / total : 0;

	for (int i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	if (done > 0 && done < total) {
		long s = (long)(elapsed / done * (total - done) + 0.5);

		snprintf(eta, sizeof(eta), "ETA %ld:%02ld", s / 60, s % 60);
	} else if (done >= total) {
		snprintf(eta, sizeof(eta), "done");
	}
	snprintf(buf, len, "[%s] %d/%d %s, %s", bar, done, total, what, eta);
}

void progress_start(struct progress *p, FILE *f, bool enabled, int total, const char *what)
{
	p->f = enabled && f && isatty(fileno(f)) ? f : NULL;
	p->total = total;
	p->t0 = now_s();
	p->what = what;
}

void progress_update(struct progress *p, int done)
{
	char line[128];

	if (!p->f)
		return;
	progress_format(line, sizeof(line), done, p->total, now_s() - p->t0, p->what);
	fprintf(p->f, "\r%s\033[K", line);
	fflush(p->f);
}

void progress_sim(struct progress *p, double frac, double sim_s, unsigned long long events)
{
	char line[160];

	if (!p->f)
		return;
	if (frac >= 0) {
		int permille = (int)(frac * 1000);

		progress_format(line, sizeof(line), permille, 1000, now_s() - p->t0, "of the work");
		/* "[###...] 450/1000 of the work" reads better as a percentage. */
		char *slash = strchr(line, ']');
		char tail[96];

		snprintf(tail, sizeof(tail), "%s", strchr(line, ',') ? strchr(line, ',') : "");
		if (slash)
			snprintf(slash + 1, sizeof(line) - (size_t)(slash + 1 - line),
				 " %.1f%%, %.3f s simulated%s", frac * 100, sim_s, tail);
	} else {
		snprintf(line, sizeof(line), "%.3f s simulated, %llu events", sim_s, events);
	}
	fprintf(p->f, "\r%s\033[K", line);
	fflush(p->f);
}

void progress_end(struct progress *p)
{
	if (!p->f)
		return;
	fprintf(p->f, "\r\033[K");
	fflush(p->f);
	p->f = NULL;
}
