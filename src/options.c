/* options.c: the two invocation forms. Through a symlink the name of
 * the link is the command and every argument is the command's; only
 * the explicit "sbexec" form has options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
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

/* The options, long and short: the short ones are the codes that are
 * letters of "pnhV". Long names are matched whole (no abbreviations: a
 * prefix that later means another option would change what a script
 * asks for). */
static const struct opt {
	const char *name;
	char code;
	char arg;		/* takes a value */
} opts[] = {
	{ "policy", 'p', 1 },
	{ "dry-run", 'n', 0 },
	{ "check", 'c', 0 },
	{ "link", 'l', 1 },
	{ "help", 'h', 0 },
	{ "version", 'V', 0 },
};
#define SHORT_OPTS "pnhV"

static _Noreturn void usage_error(const char *what)
{
	fmt_fprintf(stderr, "sbexec: %s\n%s", what, usage);
	exit(EXIT_SBEXEC);
}

static void set_mode(struct options *o, enum mode m)
{
	if (o->mode != MODE_RUN)
		usage_error("-n, --check and --link exclude each other");
	o->mode = m;
}

static void apply(struct options *o, char code, char *arg)
{
	switch (code) {
	case 'p':	o->policy = arg; break;
	case 'n':	set_mode(o, MODE_DRY_RUN); break;
	case 'c':	set_mode(o, MODE_CHECK); break;
	case 'l':	set_mode(o, MODE_LINK); o->link_dir = arg; break;
	case 'h':	fputs(usage, stdout); exit(0);
	case 'V':	puts("sbexec " VERSION " (commit " COMMIT ")"); exit(0);
	}
}

static const struct opt *find_long(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	usage_error("unknown option or missing argument");
}

static const struct opt *find_short(char code)
{
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].code == code && strchr(SHORT_OPTS, code) != NULL)
			return &opts[i];
	usage_error("unknown option or missing argument");
}

/* "--name", "--name=VALUE" or "--name VALUE" at argv[i]; returns the
 * index of the last word it took. A value the words lack is argv[argc],
 * NULL. */
static int long_opt(char **argv, int i, struct options *o)
{
	char *name = argv[i] + 2, *eq = strchr(name, '=');
	const struct opt *op = find_long(name, eq ? (size_t)(eq - name) :
	    strlen(name));
	char *arg = eq ? eq + 1 : NULL;

	if (op->arg && arg == NULL && (arg = argv[++i]) == NULL)
		usage_error("unknown option or missing argument");
	if (!op->arg && eq != NULL)
		usage_error("unknown option or missing argument");
	apply(o, op->code, arg);
	return i;
}

/* "-nV", "-pFILE" or "-p FILE" at argv[i], as long_opt. */
static int short_opts(char **argv, int i, struct options *o)
{
	char *p;
	char *arg;

	for (p = argv[i] + 1; *p != '\0'; p++) {
		const struct opt *op = find_short(*p);

		if (!op->arg) {
			apply(o, op->code, NULL);
			continue;
		}
		if ((arg = p[1] != '\0' ? p + 1 : argv[++i]) == NULL)
			usage_error("unknown option or missing argument");
		apply(o, op->code, arg);
		break;
	}
	return i;
}

/* Options until the first word that is not one ("-" is a command, "--"
 * ends them): as getopt with "+", nothing is permuted. */
static void explicit_form(int argc, char **argv, struct options *o)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		i = argv[i][1] == '-' ? long_opt(argv, i, o) :
		    short_opts(argv, i, o);
	}
	if (o->mode == MODE_CHECK || o->mode == MODE_LINK) {
		if (i != argc)
			usage_error("--check and --link take no command");
		return;
	}
	if (i >= argc)
		usage_error("no command given");
	o->cmd_argv = argv + i;
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
