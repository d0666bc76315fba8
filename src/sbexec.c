/* sbexec: run a command named by a JSON policy inside bubblewrap.
 *
 * Through a symlink NAME -> sbexec every argument belongs to NAME: sbexec
 * parses no option of its own there, else "ffprobe --policy=evil.json"
 * would be an escape. main reads top to bottom: descriptors, argv,
 * policy, decision, target, environment, sandbox argv, audit, run. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fmt.h"
#include "audit/audit.h"
#include "audit/outfd.h"
#include "audit/sink.h"
#include "check.h"
#include "net/netns.h"
#include "options.h"
#include "policy/env.h"
#include "policy/policy.h"
#include "prof.h"
#include "quote.h"
#include "run/cgroup.h"
#include "run/run.h"
#include "sandbox/launch.h"
#include "sandbox/sandbox.h"
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
	fmt_printf("%s:%s\n", label, line + 4);
	free(line);
}

static void print_env(char *const *envp)
{
	fputs("env:", stdout);
	for (; *envp != NULL; envp++)
		fmt_printf(" %.*s", (int)strcspn(*envp, "="), *envp);
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

static int forwarded_pending(void)
{
	sigset_t set;

	sigpending(&set);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(*forwarded); i++)
		if (sigismember(&set, forwarded[i]) == 1)
			return forwarded[i];
	return 0;
}

/* A forwarded signal that came before the command was started: the run
 * ends there, with its end record, and sbexec dies of it as a killed
 * command's sbexec does. 0 when none is pending. */
static int stopped_before_start(const char *name)
{
	struct audit_end e = { .reason = "a signal came before the command "
	    "started; the command was not run" };

	if ((e.signal = forwarded_pending()) == 0)
		return 0;
	e.exit_status = 128 + e.signal;
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

/* One run of the command, as main prepared it. */
struct job {
	const struct policy *pol;	/* the command's own, or the policy */
	const struct command *cmd;
	const struct options *o;
	enum decision d;
	struct sandbox_io io;
	struct strv argv;
	char **envp;
	struct sandbox_run run;
};

static char *fallback_line(const struct sandbox_io *io)
{
	return io->fallback ? xasprintf("sandbox: auto fell back to "
	    "Landlock: %s", io->fallback) : NULL;
}

static void dry_run(const struct job *j)
{
	char *fallback = fallback_line(&j->io);

	fmt_printf("backend: %s%s%s\n", j->d == DECIDE_BYPASS ? "none" :
	    backend_name[j->io.backend], fallback ? "; " : "",
	    fallback ? fallback : "");
	print_env(j->envp);
	for (size_t i = 0; i < j->io.masked.n; i++)
		fmt_printf("masked: %s (%s)\n", j->io.masked.v[i],
		    j->io.masked_why.v[i]);
	print_argv("argv", j->argv.v);
	exit(0);
}

static struct cgroup run_cg = { .procs = { -1, -1, -1, -1 }, .dirfd = -1,
    .lockfd = -1 };

static void remove_cgroup(void)
{
	cgroup_remove(&run_cg);
	prof_mark("run-wide cgroup removed");
}

static int run_wide(const struct limits *l)
{
	return l->run_memory_bytes || l->run_tasks || l->run_cpu_seconds;
}

/* The run's cgroup, made once (a trial's fallback keeps it), for a
 * policy that sets a run-wide limit: on cgroup v1 moving the child in
 * waits for an RCU grace period (6-12 ms here), which no other run
 * should pay. Without one, such a policy is refused unless it lets the
 * limits fall back to the per-process ones, loudly; *NONE gets that
 * reason. */
static void make_cgroup(const struct job *j, char **none)
{
	static int made;
	const struct limits *l = &j->pol->limits;

	if (made++ || !run_wide(l))
		return;
	if (cgroup_make(l, &run_cg) == 0) {
		atexit(remove_cgroup);
		return;
	}
	if (!l->cgroup_optional) {
		warnx("%s: %s; the run-wide limits need one (or set "
		    "limits.cgroup to \"optional\" to run under per-process "
		    "limits only)", j->cmd->name, run_cg.why);
		if (audit_error(j->cmd->name, run_cg.why) < 0)
			exit(EXIT_SBEXEC);
		exit(EXIT_SBEXEC);
	}
	*none = xasprintf("limits: no cgroup (%s); the run-wide limits are "
	    "not enforced, only the per-process ones", run_cg.why);
}

/* The start record, then supervise. On trial ("auto" where sbexec holds
 * back what bwrap says) the record waits for bwrap to be set up, unless
 * a signal is pending already. */
static int run_job(struct job *j)
{
	struct run_start b = { j->pol, j->cmd, j->o->cmd_argv, {
	    j->io.cwd, j->io.masked.v, j->d == DECIDE_BYPASS ? "none" :
	    backend_name[j->io.backend], fallback_line(&j->io),
	    j->pol->overrides.v, j->d == DECIDE_SANDBOX && j->io.backend ==
	    BACKEND_LANDLOCK ? j->io.landlock.abi : 0, NULL, NULL, 0, NULL, NULL } };
	struct sandbox_run *run = &j->run;
	static char *no_cgroup;
	int status;

	make_cgroup(j, &no_cgroup);
	prof_mark("run-wide cgroup made");
	b.rec.cgroup = run_cg.version ? run_cg.dir[run_cg.version == 2 ? 0 :
	    CG_PIDS] : NULL;
	b.rec.no_cgroup = no_cgroup;
	if (b.rec.landlock_abi > 0) {
		b.rec.landlock_rules = j->io.landlock.rules;
		b.rec.landlock_cost = landlock_cost(b.rec.landlock_abi);
		b.rec.narrowed = j->io.landlock.narrowed.v;
	}

	*run = (struct sandbox_run){ .feed = { -1, -1, NULL, 0 } };
	if (!j->io.trial || forwarded_pending() != 0) {
		if (audit_start(b.pol, b.cmd, b.argv, &b.rec) < 0)
			exit(EXIT_SBEXEC);
		if ((status = stopped_before_start(j->cmd->name)) != 0)
			exit_like(status);
		prof_mark("audit start record");
	} else {
		run->begin = &b;
	}
	if (j->d == DECIDE_SANDBOX && j->io.backend == BACKEND_LANDLOCK) {
		run->landlock = &j->io.landlock;
	} else if (j->d == DECIDE_SANDBOX) {
		run->keep = &j->io.keep;
		run->handin = j->io.handin;
		run->net = j->pol->net;
		run->expect = &j->io.expect;
		sandbox_seccomp(j->pol, &run->feed);
		prof_mark("seccomp filter into its pipe");
	}
	return supervise(j->pol, j->cmd, j->argv.v, j->envp,
	    j->d == DECIDE_SANDBOX ? run : NULL, &run_cg);
}

/* DESIGN 9: bwrap could not set up, and nothing ran: Landlock runs. */
static int fall_back(struct job *j)
{
	char *why;
	int status = sandbox_fallback(j->pol, j->cmd, j->o->args, &j->io,
	    &j->argv, j->run.fallback, &why);

	if (status != 0) {
		warnx("%s", why);
		if (audit_error(j->cmd->name, why) < 0)
			exit(EXIT_SBEXEC);
		return status;
	}
	return run_job(j);
}

int main(int argc, char **argv)
{
	/* Static: what main builds lives until exit, which frees it. */
	static struct policy pol;
	static struct job j = { .io = { .status_fd = -1, .seccomp_fd = -1 } };
	static char *refused;
	struct options o;
	const struct command *cmd;
	const char *why = NULL;
	int status;

	launch_maybe(argc, argv);	/* inside bwrap: launch.c */
	prof_mark(NULL);
	sanitize_fds();
	supervise_init();
	util_msg_sink(outfd_line);	/* no line of sbexec's blocks it */
	options_parse(argc, argv, &o);
	prof_mark("descriptors, signals, options");
	if (policy_load(o.policy, &pol) < 0)
		exit(EXIT_SBEXEC);
	if (o.mode != MODE_LINK)
		sink_choose(&pol);	/* "audit": "auto" */
	prof_mark("policy: read, parse, validate, sha256");
	if (o.mode == MODE_CHECK)
		exit(check_print(&pol));
	if (o.mode == MODE_LINK)
		exit(link_commands(&pol, o.link_dir));
	if (o.mode == MODE_RUN && audit_open(&pol) < 0)
		exit(EXIT_SBEXEC);
	prof_mark("audit sink open");
	j.o = &o;
	j.d = policy_decide(&pol, o.name, &cmd);
	if (o.mode == MODE_DRY_RUN)
		fmt_printf("decision: %s\n", decision_name[j.d]);
	if (j.d == DECIDE_DENY) {
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
	prof_mark("decide, target check");
	j.cmd = cmd;
	j.pol = policy_of(&pol, cmd);
	/* From here no write waits past what the run may last; supervise()
	 * sets it again from the run's own start. */
	outfd_limit(now_ms() + j.pol->limits.timeout_ms +
	    j.pol->limits.kill_after_ms);
	j.io.cwd = working_dir();
	j.io.status_fd = STATUS_FD;
	j.io.seccomp_fd = SECCOMP_FD;
	j.io.can_try = o.mode == MODE_RUN && supervise_holds_stderr(j.pol);
	j.envp = env_build(environ, j.pol->env_allow, j.pol->inherit_host_env);
	if (j.envp == NULL)
		diex(EXIT_SBEXEC, "%s: the environment to pass is larger than "
		    "sbexec's bound; name fewer variables", cmd->name);
	if (j.d == DECIDE_SANDBOX && j.pol->net != NULL)
		j.envp = env_proxy(j.envp, "http://127.0.0.1:" PROXY_PORT_STR);
	if (j.d == DECIDE_SANDBOX)
		j.envp = env_quiet(j.envp);
	j.io.envp = j.envp;
	prof_mark("working directory, environment");
	if (j.d == DECIDE_BYPASS) {
		strv_push(&j.argv, cmd->path);
		strv_pushn(&j.argv, (const char *const *)o.args, o.nargs);
	} else if ((status = sandbox_build(j.pol, cmd, o.args, &j.io,
	    &j.argv, &refused)) != 0) {
		warnx("%s", refused);
		if (o.mode == MODE_RUN && audit_error(cmd->name, refused) < 0)
			exit(EXIT_SBEXEC);
		exit(status);
	}
	prof_mark(j.io.backend == BACKEND_LANDLOCK ? "Landlock: ruleset, "
	    "final layer, argv" : "bwrap argv: kernfs, mounts, devices, "
	    "launcher, expectations");
	/* A rule left out changes what the command may do: say so. */
	for (size_t i = 0; i < j.io.left.n; i++)
		warnx("%s: %s", cmd->name, j.io.left.v[i]);
	if (o.mode == MODE_DRY_RUN)
		dry_run(&j);
	block_forwarded();
	if ((status = run_job(&j)) == RUN_FALLBACK)
		status = fall_back(&j);
	exit_like(audit_end_lost() ? EXIT_SBEXEC : status);
}
