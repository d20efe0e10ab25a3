/*
 * commands.h - wakesim's subcommands; each returns the process exit status.
 */
#ifndef WS_COMMANDS_H
#define WS_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

#endif
