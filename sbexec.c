/* sbexec: run a command named by a JSON policy inside bubblewrap.
 *
 * Through a symlink NAME -> sbexec every argument belongs to NAME: sbexec
 * parses no option of its own there, else "ffprobe --policy=evil.json"
 * would be an escape. main reads top to bottom: descriptors, argv,
 * policy, decision, target, environment, sandbox argv, audit, run. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "audit.h"
#include "check.h"
#include "env.h"
#include "netns.h"
#include "options.h"
#include "policy.h"
#include "quote.h"
#include "run.h"
#include "sandbox.h"
#include "util.h"

extern char **environ;

/* 0, 1 and 2 open (so that nothing sbexec opens lands on them), every
 * other inherited descriptor closed, as doas does with closefrom. */
static void sanitize_fds(void)
{
	struct stat st;

	for (int fd = 0; fd < 3; fd++)
		if (fstat(fd, &st) < 0 && open("/dev/null", O_RDWR) != fd)
			_exit(EXIT_SBEXEC);
	if (syscall(SYS_close_range, 3U, ~0U, 0U) < 0)
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
}

static char *working_dir(void)
{
	char buf[PATH_MAX];

	if (getcwd(buf, sizeof(buf)) == NULL)
		die(EXIT_SBEXEC, "cannot get the working directory");
	return xstrdup(buf);
}

/* The target must exist (127), be an executable file (126), and not be
 * sbexec itself, which would loop (125). */
static int check_target(const struct command *cmd, const char **why)
{
	struct stat st, self;

	if (stat(cmd->path, &st) < 0) {
		*why = strerror(errno);
		return errno == ENOENT || errno == ENOTDIR ? EXIT_NOTFOUND :
		    EXIT_DENIED;
	}
	if (!S_ISREG(st.st_mode) || access(cmd->path, X_OK) < 0) {
		*why = "not an executable file";
		return EXIT_DENIED;
	}
	if (stat("/proc/self/exe", &self) < 0) {
		*why = "cannot stat /proc/self/exe to rule out an exec loop";
		return EXIT_SBEXEC;
	}
	if (st.st_dev == self.st_dev && st.st_ino == self.st_ino) {
		*why = "the target is sbexec itself (exec loop); point the "
		    "policy at the real binary";
		return EXIT_SBEXEC;
	}
	return 0;
}

static void print_argv(const char *label, char *const *v)
{
	char *line = quote_command(v, (size_t)-1);

	/* quote_command starts with "exec"; the argv itself follows. */
	printf("%s:%s\n", label, line + 4);
	free(line);
}

static void print_env(char *const *envp)
{
	fputs("env:", stdout);
	for (; *envp != NULL; envp++)
		printf(" %.*s", (int)strcspn(*envp, "="), *envp);
	putchar('\n');
}

/* The signals supervise() forwards to the command (DESIGN 5). Blocked
 * before the start record is written, so that one arriving from then
 * on is seen and answered with an end record, never a run that dies
 * between its records; the command still gets the mask supervise_init
 * saved. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void block_forwarded(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		sigaddset(&set, forwarded[i]);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* A forwarded signal that came before the command was started: the run
 * ends there, with its end record, and sbexec dies of it as a killed
 * command's sbexec does. 0 when none is pending. */
static int stopped_before_start(const char *name)
{
	struct audit_end e = { .reason = "a signal came before the command "
	    "started; the command was not run" };
	sigset_t set;

	sigpending(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		if (sigismember(&set, forwarded[i]) == 1) {
			e.signal = forwarded[i];
			e.exit_status = 128 + e.signal;
			break;
		}
	if (e.signal == 0)
		return 0;
	warnx("%s: signal %d before the command started; not run", name,
	    e.signal);
	audit_finish(&e);
	return audit_end_lost() ? EXIT_SBEXEC : e.exit_status;
}

static const char *const backend_name[] = {
	[BACKEND_BWRAP] = "bwrap",
	[BACKEND_LANDLOCK] = "landlock",
	[BACKEND_AUTO] = "auto",
};

static const char *const decision_name[] = {
	[DECIDE_DENY] = "deny",
	[DECIDE_SANDBOX] = "sandbox",
	[DECIDE_BYPASS] = "bypass",
};

int main(int argc, char **argv)
{
	/* Static: what main builds lives until exit, which frees it. */
	static struct policy pol;
	static struct strv run_argv;
	static char **envp, *refused, *fallback;
	static struct sandbox_run run;
	const struct policy *eff;	/* the command's own, or pol */
	const char *backend;
	struct options o;
	const struct command *cmd;
	enum decision d;
	struct sandbox_io io = { .status_fd = -1, .seccomp_fd = -1 };
	const char *why = NULL;
	int status;

	sanitize_fds();
	supervise_init();
	options_parse(argc, argv, &o);
	if (policy_load(o.policy, &pol) < 0)
		exit(EXIT_SBEXEC);
	if (o.mode == MODE_CHECK)
		exit(check_print(&pol));
	if (o.mode == MODE_LINK)
		exit(link_commands(&pol, o.link_dir));
	if (o.mode == MODE_RUN && audit_open(&pol) < 0)
		exit(EXIT_SBEXEC);
	d = policy_decide(&pol, o.name, &cmd);
	if (o.mode == MODE_DRY_RUN)
		printf("decision: %s\n", decision_name[d]);
	if (d == DECIDE_DENY) {
		warnx("%s: not a command of the policy %s; denied", o.name,
		    pol.file);
		if (o.mode == MODE_RUN &&
		    audit_deny(o.name, "not a command of the policy") < 0)
			exit(EXIT_SBEXEC);
		exit(EXIT_DENIED);
	}
	if ((status = check_target(cmd, &why)) != 0) {
		warnx("%s: %s: %s", cmd->name, cmd->path, why);
		if (o.mode == MODE_RUN && audit_error(cmd->name, why) < 0)
			exit(EXIT_SBEXEC);
		exit(status);
	}
	eff = policy_of(&pol, cmd);
	io.cwd = working_dir();
	io.status_fd = STATUS_FD;
	io.seccomp_fd = SECCOMP_FD;
	if (d == DECIDE_BYPASS) {
		strv_push(&run_argv, cmd->path);
		strv_pushn(&run_argv, (const char *const *)o.args, o.nargs);
	} else if ((status = sandbox_build(eff, cmd, o.args, &io, &run_argv,
	    &refused)) != 0) {
		warnx("%s", refused);
		if (o.mode == MODE_RUN && audit_error(cmd->name, refused) < 0)
			exit(EXIT_SBEXEC);
		exit(status);
	}
	envp = env_build(environ, eff->env_allow, eff->inherit_host_env);
	if (envp == NULL)
		diex(EXIT_SBEXEC, "%s: the environment to pass is larger than "
		    "sbexec's bound; name fewer variables", cmd->name);
	if (d == DECIDE_SANDBOX && eff->net != NULL)
		envp = env_proxy(envp, "http://127.0.0.1:" PROXY_PORT_STR);
	if (d == DECIDE_SANDBOX)
		fallback = io.fallback ? xasprintf("sandbox: auto fell back to "
		    "Landlock: %s", io.fallback) : NULL;
	backend = d == DECIDE_BYPASS ? "none" : backend_name[io.backend];
	if (o.mode == MODE_DRY_RUN) {
		printf("backend: %s%s%s\n", backend, fallback ? "; " : "",
		    fallback ? fallback : "");
		print_env(envp);
		for (size_t i = 0; i < io.masked.n; i++)
			printf("masked: %s (a link: its target is read-only, "
			    "the link replaceable)\n", io.masked.v[i]);
		print_argv("argv", run_argv.v);
		exit(0);
	}
	block_forwarded();
	if (audit_start(eff, cmd, o.cmd_argv, &(struct audit_run){ io.cwd,
	    io.masked.v, backend, fallback, eff->overrides.v }) < 0)
		exit(EXIT_SBEXEC);
	if ((status = stopped_before_start(cmd->name)) != 0)
		exit_like(status);
	if (d == DECIDE_SANDBOX && io.backend == BACKEND_LANDLOCK) {
		run.landlock = &io.landlock;
		run.feed = (struct seccomp_feed){ -1, -1, NULL, 0 };
	} else if (d == DECIDE_SANDBOX) {
		run.keep = &io.keep;
		run.net = eff->net;
		run.expect = &io.expect;
		sandbox_seccomp(eff, &run.feed);
	}
	status = supervise(eff, cmd, run_argv.v, envp,
	    d == DECIDE_SANDBOX ? &run : NULL);
	exit_like(audit_end_lost() ? EXIT_SBEXEC : status);
}
