/* audit.h: JSONL audit records (DESIGN 6). An audit that cannot be
 * written is a failure: the command does not run. */
#ifndef SBEXEC_AUDIT_H
#define SBEXEC_AUDIT_H

#include <stddef.h>

#include "policy/policy.h"

/* The bound of one record, its newline included (DESIGN 12): what is
 * written for it, with a leading newline on stderr or the syslog
 * header, stays below PIPE_BUF (4096), so one write is atomic on a pipe
 * and whole in every syslog daemon that keeps 4 KiB or more (rsyslog
 * keeps 8 KiB). Longer values are cut, as json.h says. */
#define AUDIT_RECORD_MAX 4000

struct audit_end {
	int exit_status, signal, timed_out;
	const char *output_limit;	/* NULL, "stdout" or "stderr" */
	long long stdout_bytes, stderr_bytes;
	long long duration_ms, max_rss_kb, cpu_ms;
	const char *reason;	/* why the command did not run, or NULL */
	long long net_refused;	/* the proxy's refused or failed requests */
	long long lines_dropped;	/* sbexec's lines with no room (say.c) */
	/* The run's cgroup, when it had one: -1 for what is not known. */
	int cgroup, oom, cpu_exceeded;
	long long run_peak_bytes, run_cpu_ms, run_tasks_peak, tasks_refused;
};

/* Open the policy's sink and draw the invocation id; -1 when it cannot
 * be opened (said why). */
int audit_open(const struct policy *pol);

/* How a command is run, for its start record. */
struct audit_run {
	const char *cwd;
	char *const *masked;	/* protected names found as links, or NULL */
	const char *backend;	/* "bwrap", "landlock" or "none" (bypass) */
	const char *fallback;	/* why "auto" fell back to Landlock, or NULL */
	char *const *overrides;	/* the key paths the command's policy sets */
	int landlock_abi;	/* under Landlock, the kernel's ABI; else 0 */
	const char *cgroup;	/* the run's cgroup, or NULL */
	const char *no_cgroup;	/* run-wide limits without one: why, loud */
	long landlock_rules;	/* under Landlock, its ruleset's rules */
	char *const *narrowed;	/* ... landlock.h's narrowed, or NULL */
	const char *landlock_cost;	/* ... landlock_cost()'s line, or NULL */
};

int audit_start(const struct policy *pol, const struct command *cmd,
    char *const *argv, const struct audit_run *r);
int audit_deny(const char *name, const char *reason);
int audit_error(const char *name, const char *reason);
int audit_finish(const struct audit_end *end);

/* DESIGN 11: one connection to the proxy. REASON is NULL when it was
 * allowed; ERROR says why an allowed one failed (resolve, connect). A
 * summary of several has CONNECTIONS above 1 (0 is read as 1). */
struct audit_net {
	const char *method, *host, *target, *address, *reason, *error;
	const char *sni;	/* a tunnel's TLS server names, as sent */
	int port;
	long connections;
	long long bytes_up, bytes_down;
};

int audit_net(const struct audit_net *n);

/* pump.c's word of what it wrote to sbexec's descriptor FD (N bytes
 * ending BUF): a record on stderr begins with a newline unless the last
 * byte sent there was one (DESIGN 12). */
void audit_wrote(int fd, const char *buf, size_t n);

/* 1 when a record written to stderr now would begin a line. */
int audit_line_start(void);

/* While sbexec's loop runs, records on stderr go to PUT (run/say.c's
 * queue: no write of sbexec's may stop the loop), which answers 0, or
 * -1 when the record finds no room; NULL writes them again. */
void audit_divert(int (*put)(const char *buf, size_t len));

/* 1 once the end record could not be written: sbexec then exits 125. */
int audit_end_lost(void);

#endif
