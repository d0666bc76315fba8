/* policy.h: the parsed policy as inert data, and the pure decision over it. */
#ifndef SBEXEC_POLICY_H
#define SBEXEC_POLICY_H

#include <stddef.h>

#include "util.h"

/* What a filesystem rule does to its path; the order is the tie-break:
 * at an equal path the larger value wins (deny wins). */
enum fs_kind {
	FS_ALLOW_READ,
	FS_ALLOW_WRITE,
	FS_DENY_WRITE,
	FS_DENY_READ
};

struct fs_rule {
	char *path;		/* as written in the policy */
	char *expanded;		/* absolute and normal, symlinks kept */
	char *resolved;		/* absolute, symlinks resolved; NULL: absent */
	enum fs_kind kind;
};

struct policy;
struct netpolicy;

struct command {
	char *name;
	char *path;
	int bypass;
	struct policy *own;	/* DESIGN 10: its effective policy, or NULL */
};

/* AUDIT_AUTO is decided at each run (audit/sink.c) into one of the
 * others before anything is audited. */
enum audit_sink { AUDIT_STDERR, AUDIT_FILE, AUDIT_SYSLOG, AUDIT_AUTO };

/* DESIGN 9: which backend isolates the command. */
enum backend { BACKEND_BWRAP, BACKEND_LANDLOCK, BACKEND_AUTO };

struct limits {
	long long timeout_ms, kill_after_ms, max_output_bytes;
	long long cpu_seconds, memory_bytes, file_size_bytes;
	long long open_files, processes;
	long long tmp_bytes;		/* privateTmp's tmpfs */
	/* The whole run's, in its cgroup (cgroup.c); 0: none. */
	long long run_memory_bytes, run_tasks, run_cpu_seconds;
	int cgroup_optional;	/* no cgroup: per-process limits only */
};

/* Bound: execPaths' entries, far more than a custom ffmpeg needs; with
 * the defaults, the trees' index stays within the mount helper's exit
 * status (sandbox/mntns.c). */
#define NOEXEC_PATHS_MAX 64

/* Bound: "programs" entries, what the command may start. */
#define PROGRAMS_MAX 64

struct policy {
	char *file;			/* where it was read from */
	char sha256[65];
	struct command *cmds;
	size_t ncmds;
	char *bin_shell, *bwrap;
	char **env_allow;		/* NULL-terminated */
	size_t nenv_allow;
	int inherit_host_env, weaker_nested, private_tmp;
	int network_host, allow_unix_sockets;
	struct netpolicy *net;		/* DESIGN 11: an allow-list, or NULL */
	enum backend backend;
	struct fs_rule *rules;
	size_t nrules;
	struct strv devices;		/* DESIGN 12: sets and paths, checked */
	struct strv exec_paths;		/* DESIGN 13: executable beside /usr */
	struct strv programs;		/* a command's: what it may start */
	int allow_wx;			/* a command's: W^X lifted */
	struct limits limits;
	enum audit_sink audit;
	char *audit_path;
	struct strv overrides;		/* a command's: the key paths it sets */
};

/* The policy a command runs under: its own (DESIGN 10), else POL. */
const struct policy *policy_of(const struct policy *pol,
    const struct command *cmd);

/* Read, check and parse FILE (DESIGN sections 1, 2 and 4), and check
 * the programs it names (DESIGN 12). On any error, print one line
 * naming the key path (one per program refused) and return -1. */
int policy_load(const char *file, struct policy *pol);

/* The same from memory (the fuzz target and unit tests); NAME is used in
 * messages, the file checks are skipped, and BUF[LEN] must be '\0'. */
int policy_parse(const char *name, const char *buf, size_t len,
    struct policy *pol);

/* Free what policy_parse allocated, after success or failure. */
void policy_free(struct policy *pol);

enum decision { DECIDE_DENY, DECIDE_SANDBOX, DECIDE_BYPASS };

/* Pure: no system call. Sets *cmd to the command when not denied. */
enum decision policy_decide(const struct policy *pol, const char *name,
    const struct command **cmd);

/* 1 when NAME (a command name or a basename) is a shell, launcher or
 * interpreter of DESIGN section 4, version suffix ignored. */
int is_interpreter(const char *name);

/* The warnings --check prints; one line each, through warn(). */
void policy_warnings(const struct policy *pol,
    void (*warn)(const char *line, void *arg), void *arg);

#endif
