/* options.c: the two invocation forms. Through a symlink the name of
 * the link is the command and every argument is the command's; only
 * the explicit "sbexec" form has options. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#ifndef VERSION
#define VERSION "unknown"
#endif
#ifndef COMMIT
#define COMMIT "unknown"
#endif

/* Bounds from the kernel: more could not be exec'd anyway. */
#define ARGS_MAX (1 << 17)

static const char usage[] =
"usage: sbexec [-p FILE] [-n] [--] NAME [ARG ...]\n"
"       sbexec [-p FILE] --check\n"
"       sbexec [-p FILE] --link DIR\n"
"       NAME [ARG ...]        (through a symlink NAME -> sbexec)\n"
"\n"
"Run NAME, a command of the policy, inside a bubblewrap sandbox.\n"
"\n"
"  -p, --policy FILE  the policy (else $SBEXEC_POLICY, else\n"
"                     " SYSCONFDIR "/sbexec/policy.json)\n"
"  -n, --dry-run      print the decision, the environment names and the\n"
"                     argv that would run; run nothing\n"
"      --check        validate the policy, print a summary and warnings\n"
"      --link DIR     create DIR/NAME -> sbexec for every command\n"
"  -h, --help         this text\n"
"  -V, --version      the version\n"
"\n"
"Exit status:\n"
"  0-123  the command's own status\n"
"  124    timed out\n"
"  125    sbexec failed: usage, invalid or unsafe policy, audit sink\n"
"         unwritable, sandbox setup failed, output limit exceeded\n"
"  126    denied by policy, or the target is not executable\n"
"  127    the target does not exist\n"
"  128+N  the command was killed by signal N\n";

static const struct option longopts[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "check", no_argument, NULL, 'c' },
	{ "link", required_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static _Noreturn void usage_error(const char *what)
{
	fprintf(stderr, "sbexec: %s\n%s", what, usage);
	exit(EXIT_SBEXEC);
}

static void set_mode(struct options *o, enum mode m)
{
	if (o->mode != MODE_RUN)
		usage_error("-n, --check and --link exclude each other");
	o->mode = m;
}

static void explicit_form(int argc, char **argv, struct options *o)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+p:nhV", longopts, NULL)) != -1)
		switch (c) {
		case 'p':	o->policy = optarg; break;
		case 'n':	set_mode(o, MODE_DRY_RUN); break;
		case 'c':	set_mode(o, MODE_CHECK); break;
		case 'l':	set_mode(o, MODE_LINK); o->link_dir = optarg;
				break;
		case 'h':	fputs(usage, stdout); exit(0);
		case 'V':	puts("sbexec " VERSION " (commit " COMMIT ")"); exit(0);
		default:	usage_error("unknown option or missing argument");
		}
	if (o->mode == MODE_CHECK || o->mode == MODE_LINK) {
		if (optind != argc)
			usage_error("--check and --link take no command");
		return;
	}
	if (optind >= argc)
		usage_error("no command given");
	o->cmd_argv = argv + optind;
}

void options_parse(int argc, char **argv, struct options *o)
{
	const char *env = getenv("SBEXEC_POLICY");

	memset(o, 0, sizeof(*o));
	o->policy = env && *env ? env : SYSCONFDIR "/sbexec/policy.json";
	if (argc < 1 || argv[0] == NULL)
		usage_error("no argv[0]");
	if (argc > ARGS_MAX)
		diex(EXIT_SBEXEC, "more than %d arguments", ARGS_MAX);
	if (strcmp(base_name(argv[0]), "sbexec") == 0)
		explicit_form(argc, argv, o);
	else
		o->cmd_argv = argv;
	if (o->cmd_argv == NULL)
		return;
	/* Explicitly, NAME is taken as written: "x/ffprobe" is no name. */
	o->name = o->cmd_argv == argv ? base_name(argv[0]) : o->cmd_argv[0];
	o->args = o->cmd_argv + 1;
	o->nargs = (size_t)(argc - (o->cmd_argv - argv) - 1);
}
