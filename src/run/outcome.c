/* outcome.c: what a run ends as. The exit status of DESIGN 7, which
 * tells a sandbox that was refused or could not be set up (no
 * "exit-code" on --json-status-fd) from a command that failed, with a
 * hint for bwrap's known failures; the end record; and dying of the
 * command's signal, as coreutils timeout does. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "audit/audit.h"
#include "run/say.h"
#include "run/sup.h"
#include "tiny.h"
#include "util.h"

struct hint {
	const char *match, *text;
};

static const struct hint hints[] = {
	{ "create new namespace", "user namespaces are refused here (a "
	    "container's seccomp profile, or the kernel); set \"sandbox\": "
	    "\"auto\" to run under Landlock where bwrap cannot" },
	{ "uid_map", "inside an unprivileged container bwrap cannot set up "
	    "a user namespace or mount /proc; set \"sandbox\": \"auto\" to "
	    "run under Landlock there, or, if the container already "
	    "isolates, \"enableWeakerNestedSandbox\": true" },
	{ "Can't mount proc", "inside an unprivileged container bwrap cannot "
	    "mount /proc; set \"sandbox\": \"auto\" to run under Landlock "
	    "there, or, if the container already isolates, "
	    "\"enableWeakerNestedSandbox\": true" },
	{ "RTM_NEWADDR", "Ubuntu's AppArmor restricts unprivileged user "
	    "namespaces (kernel.apparmor_restrict_unprivileged_userns=1); "
	    "set \"sandbox\": \"auto\" to run under Landlock, give bwrap an "
	    "AppArmor profile that allows userns, or set that sysctl to 0" },
};

/* bwrap ended without an "exit-code" record: the command never ran. Its
 * own message has been copied to stderr already; add what to do. Where
 * stderr was not copied (a terminal, no cap) the message could not be
 * read: name every known cause. */
static void setup_failed(const struct sup *s)
{
	const struct stream *st = s->err.tail_len ? &s->err : &s->out;
	char tail[TAIL_MAX + 1];
	int seen = st->tail_len > 0;

	memcpy(tail, st->tail, st->tail_len);
	tail[st->tail_len] = '\0';
	if (s->run != NULL && s->run->landlock != NULL) {
		warnx("%s: the Landlock sandbox could not be set up; the "
		    "command did not run", s->cmd->name);
		return;
	}
	warnx("%s: the sandbox could not be set up: %s exited %d before "
	    "running the command", s->cmd->name, s->pol->bwrap,
	    WEXITSTATUS(s->wstatus));
	for (size_t i = 0; i < sizeof(hints) / sizeof(*hints); i++) {
		if (!seen) {
			warnx("hint: if bwrap says \"%s\": %s", hints[i].match,
			    hints[i].text);
		} else if (tiny_strstr(tail, hints[i].match) != NULL) {
			warnx("hint: %s", hints[i].text);
			return;
		}
	}
}

int outcome_status(const struct sup *s)
{
	if (s->refused != NULL) {
		warnx("%s: the sandbox did not come out as planned (%s); "
		    "nothing ran. Another run may be changing names in a "
		    "writable directory: try again", s->cmd->name, s->refused);
		return EXIT_SBEXEC;
	}
	if (s->limit != NULL || s->audit_lost || s->cpu_exceeded)
		return EXIT_SBEXEC;
	if (s->timed_out)
		return EXIT_TIMEOUT;
	if (WIFSIGNALED(s->wstatus))
		return 128 + WTERMSIG(s->wstatus);
	if (!s->sandboxed)
		return WEXITSTATUS(s->wstatus);
	if (s->exit_code >= 0)
		return s->exit_code;
	/* No "exit-code" proves nothing once the command was let start:
	 * code in the sandbox may have silenced its init. */
	if (s->released) {
		warnx("%s: the sandbox ended without the command's status, "
		    "after the command had started", s->cmd->name);
		return EXIT_SBEXEC;
	}
	setup_failed(s);
	return EXIT_SBEXEC;
}

static long long max_ll(long long a, long long b)
{
	return a > b ? a : b;
}

/* What the run's cgroup saw: a limit reached is said in one line. */
static void run_usage(const struct sup *s, struct audit_end *e)
{
	struct cg_usage u;

	if (s->cg == NULL)
		return;
	cgroup_usage(s->cg, &u);
	e->cgroup = 1;
	e->run_peak_bytes = u.peak_bytes;
	e->run_cpu_ms = u.cpu_ms;
	e->run_tasks_peak = u.tasks_peak;
	e->oom = u.oom_kills > 0;
	e->tasks_refused = u.tasks_refused;
	e->cpu_exceeded = s->cpu_exceeded;
	if (e->oom)
		warnx("%s: the run reached runMemoryBytes %lld: the kernel "
		    "killed %lld of its processes", s->cmd->name,
		    s->pol->limits.run_memory_bytes, u.oom_kills);
	if (u.tasks_refused > 0)
		warnx("%s: the run reached runTasks %lld: %lld forks refused",
		    s->cmd->name, s->pol->limits.run_tasks, u.tasks_refused);
}

void outcome_record(const struct sup *s, int status)
{
	struct audit_end e = {
		.exit_status = status,
		.signal = WIFSIGNALED(s->wstatus) ? WTERMSIG(s->wstatus) : 0,
		.timed_out = s->timed_out,
		.output_limit = s->limit,
		.stdout_bytes = s->out.bytes,
		.stderr_bytes = s->err.bytes,
		.duration_ms = now_ms() - s->start,
		.max_rss_kb = max_ll(s->ru.ru_maxrss, s->killed.max_rss_kb),
		.cpu_ms = max_ll((s->ru.ru_utime.tv_sec + s->ru.ru_stime.tv_sec)
		    * 1000LL + (s->ru.ru_utime.tv_usec + s->ru.ru_stime.tv_usec) /
		    1000, s->killed.cpu_ms),
		.net_refused = s->net_refused,
		.lines_dropped = say_dropped(),
	};

	run_usage(s, &e);

	if (audit_finish(&e) < 0)
		warnx("%s: the end record was not written", s->cmd->name);
}

/* A command killed by signal N: die of N too (after the end record), as
 * coreutils timeout does, so that a caller sees a signal (Python's
 * returncode -N), not 128+N. In the sandbox only bwrap's 128+N is known;
 * N is taken to be the signal. Falls back to exiting 128+N. */
_Noreturn void exit_like(int status)
{
	int sig = status - 128;
	struct rlimit none = { 0, 0 };
	sigset_t set;

	if (sig > 0 && sig < 32 && sig != SIGSTOP && sig != SIGTSTP &&
	    sig != SIGTTIN && sig != SIGTTOU) {
		fflush(NULL);
		setrlimit(RLIMIT_CORE, &none);	/* no core of sbexec's own */
		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	exit(status);
}
