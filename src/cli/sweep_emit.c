/*
 * sweep_emit.c - scripts that run a sweep's shards with GNU parallel or
 * as a Slurm job array, then merge them (sweep.h).
 */
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- scripts for GNU parallel and Slurm ---- */

int sweep_emit(const char *kind, const char *plan, int shards, const char *dir,
	       const char *sshlogin, int jobs, FILE *f)
{
	char self[PATH_MAX], planabs[PATH_MAX], dirabs[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0 || !realpath(plan, planabs)) {
		fprintf(stderr, "wakesim sweep: %s: cannot resolve its path\n", n <= 0 ? "wakesim" : plan);
		return 1;
	}
	self[n] = '\0';
	if (dir[0] == '/')
		snprintf(dirabs, sizeof(dirabs), "%s", dir);
	else if (!getcwd(dirabs, sizeof(dirabs) - strlen(dir) - 2))
		return 1;
	else
		snprintf(dirabs + strlen(dirabs), sizeof(dirabs) - strlen(dirabs), "/%s", dir);
	/* Slurm opens each task's log in it before the task runs: it must exist now. */
	if (mkdir(dirabs, 0777) && errno != EEXIST) {
		fprintf(stderr, "wakesim sweep: --out-dir %s: %s\n", dirabs, strerror(errno));
		return 1;
	}
	if (!strcmp(kind, "parallel")) {
		fprintf(f, "#!/bin/sh\n# wakesim sweep %s in %d shards with GNU parallel, then merged.\n"
			   "# With --sshlogin, every host needs wakesim, the plan and any policy\n"
			   "# objects at these paths, and %s on a shared file system.\nset -e\n",
			planabs, shards, dirabs);
		fprintf(f, "mkdir -p '%s'\n", dirabs);
		fprintf(f, "parallel --halt now,fail=1 -j %d%s%s '%s' sweep '%s' --quiet --shard {}/%d "
			   "-j 1 -o '%s'/shard-{}.json :::", jobs, sshlogin ? " --sshlogin " : "",
			sshlogin ? sshlogin : "", self, planabs, shards, dirabs);
		for (int i = 1; i <= shards; i++)
			fprintf(f, " %d", i);
		fprintf(f, "\n'%s' merge", self);
		for (int i = 1; i <= shards; i++)
			fprintf(f, " '%s'/shard-%d.json", dirabs, i);
		fprintf(f, " -o '%s'/report.txt\ncat '%s'/report.txt\n", dirabs, dirabs);
		return 0;
	}
	fprintf(f, "#!/bin/sh\n# wakesim sweep %s as a Slurm job array of %d shards. Submit it,\n"
		   "# then merge once every task has ended:\n"
		   "#   jid=$(sbatch --parsable THIS_FILE)\n"
		   "#   sbatch --dependency=afterok:$jid --output='%s'/merge.out --wrap \\\n"
		   "#     \"'%s' merge '%s'/shard-*.json -o '%s'/report.txt\"\n",
		planabs, shards, dirabs, self, dirabs, dirabs);
	fprintf(f, "#SBATCH --job-name=wakesim-sweep\n#SBATCH --array=1-%d\n#SBATCH --ntasks=1\n"
		   "#SBATCH --cpus-per-task=1\n#SBATCH --output=%s/slurm-%%a.out\n", shards, dirabs);
	fprintf(f, "set -e\nmkdir -p '%s'\n'%s' sweep '%s' --quiet --shard \"$SLURM_ARRAY_TASK_ID\"/%d "
		   "-j 1 -o '%s'/shard-\"$SLURM_ARRAY_TASK_ID\".json\n", dirabs, self, planabs, shards,
		dirabs);
	return 0;
}

