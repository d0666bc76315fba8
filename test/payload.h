/* payload.h: a probe built with -DPAYLOAD is the library that a hostile
 * "-af ladspa=file=" makes ffmpeg load (helper.bash's attack). It has
 * no command line: its arguments are the lines of ./payload.args, which
 * the attack writes in the sandbox's working directory. RUN gets them
 * as a main would, and the process exits with its status once the
 * library is loaded. Included by each probe (test/probe_*.c) and
 * test/census.c, which end with PROBE_MAIN. */
#ifndef SBEXEC_TEST_PAYLOAD_H
#define SBEXEC_TEST_PAYLOAD_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PAYLOAD_ARGS_MAX 128
#define PAYLOAD_FILE_MAX 65536

#define PAYLOAD_MAIN(run, name)						\
	__attribute__((constructor)) static void payload(void)		\
	{								\
		static char buf[PAYLOAD_FILE_MAX];			\
		static char *argv[PAYLOAD_ARGS_MAX] = { name };		\
		_exit(run(payload_args(buf, argv), argv));		\
	}

/* A probe's main, and its payload's loader when built with -DPAYLOAD:
 * both call RUN as main would. */
#ifdef PAYLOAD
#define PROBE_MAIN(run, name)						\
	PAYLOAD_MAIN(run, name)						\
	int main(int argc, char **argv) { return run(argc, argv); }
#else
#define PROBE_MAIN(run, name)						\
	int main(int argc, char **argv) { return run(argc, argv); }
#endif

/* ARGV[1..] from ./payload.args, one a line, read into BUF; argc. */
static inline int payload_args(char *buf, char **argv)
{
	FILE *f = fopen("payload.args", "r");
	size_t n = 0;
	int argc = 1;

	if (f != NULL) {
		n = fread(buf, 1, PAYLOAD_FILE_MAX - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	for (char *l = strtok(buf, "\n"); l != NULL &&
	    argc < PAYLOAD_ARGS_MAX - 1; l = strtok(NULL, "\n"))
		argv[argc++] = l;
	argv[argc] = NULL;
	return argc;
}

#endif
