/*
 * commands.h - wakesim's subcommands; each returns the process exit status.
 */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

#include <stdbool.h>

/*
 * Recorded in every result file, so a result names the code that made it:
 * the release and the git commit it was built from (the Makefile passes
 * it; "unknown" outside a git tree).
 */
#define WAKESIM_VERSION "0.2.0"
#ifndef WAKESIM_COMMIT
#define WAKESIM_COMMIT "unknown"
#endif

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_rerun(int argc, char **argv);
int cmd_replay(int argc, char **argv);
/* Whether a `wakesim run` option (as written, "--machine", "-o") takes the next argument. */
bool run_option_takes_value(const char *arg);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_costs(int argc, char **argv);

#endif
