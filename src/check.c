/* check.c: --check, the policy as a person reads it, and --link, the
 * symlink farm (the firejail firecfg idea). */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fmt.h"
#include "audit/sink.h"
#include "check.h"
#include "path.h"
#include "policy/devices.h"
#include "policy/netpolicy.h"
#include "run/cgroup.h"
#include "sandbox/landlock.h"
#include "sandbox/links.h"
#include "util.h"

/* Entries of a directory on the way to a hidden path past which
 * --check says what they cost a call under Landlock. */
#define DEAR_ENTRIES 250

static void print_rules(const struct policy *pol, enum fs_kind kind,
    const char *label)
{
	for (size_t i = 0; i < pol->nrules; i++) {
		const struct fs_rule *r = &pol->rules[i];

		if (r->kind != kind)
			continue;
		if (r->resolved == NULL)
			fmt_printf("  %-10s %s (does not exist; skipped)\n",
			    label, r->path);
		else
			fmt_printf("  %-10s %s\n", label, r->resolved);
	}
}

static void print_limit(const char *name, long long v)
{
	if (v > 0)
		fmt_printf("  %-16s %lld\n", name, v);
	else
		fmt_printf("  %-16s not set\n", name);
}

/* Under bwrap, whose network namespace has loopback only, IPv4 and
 * IPv6 sockets may be made; under Landlock only for network "host". */
static void print_families(const struct policy *pol)
{
	const char *unix_ = pol->allow_unix_sockets ?
	    "AF_UNIX (allowUnixSockets)" : NULL;
	const char *inet = "AF_INET, AF_INET6";

	if (pol->backend != BACKEND_LANDLOCK)
		fmt_printf("socket families: %s%s%s; no other\n", inet,
		    unix_ ? ", " : "", unix_ ? unix_ : "");
	if (pol->backend == BACKEND_BWRAP)
		return;
	inet = pol->network_host ? inet : NULL;
	fmt_printf("socket families under landlock: %s%s%s; no other\n",
	    inet ? inet : "", inet && unix_ ? ", " : "",
	    unix_ ? unix_ : inet ? "" : "none");
}

/* What an entry admits or refuses beyond its name (DESIGN 11): a
 * tunnel carries only TLS whose every ClientHello (a HelloRetryRequest
 * draws a second) names the host it was opened for, but sbexec
 * does not see the Host header inside, so an allowed name's front end
 * may serve others; a denied name is looked up, and refuses any name
 * that shares an address with it in that lookup, unless it is a
 * wildcard; at another address its front end still serves it in an
 * allowed name's tunnel (issue 31). */
static const char *host_note(const struct host_rule *r, int deny)
{
	if (deny)
		return r->wildcard ? "by name only: a wildcard has no address "
		    "to look up; an allowed name's https tunnel can still "
		    "reach it by its Host header" : "and every allowed name "
		    "that shares an address with it in the same lookup; at "
		    "another address, an allowed name's https tunnel can "
		    "still reach it by its Host header";
	return r->wildcard ? "every name below it, and whatever their front "
	    "ends serve under any Host header" : NULL;
}

static void print_hosts(const char *label, const struct host_rule *r,
    size_t n, int deny)
{
	const char *note;
	char *s;

	for (size_t i = 0; i < n; i++) {
		s = host_rule_str(&r[i]);
		note = host_note(&r[i], deny);
		fmt_printf("  %-10s %s%s%s%s\n", label, s, note ? " (" : "",
		    note ? note : "", note ? ")" : "");
		free(s);
	}
}

/* DESIGN 11: "none", "host", or the allow-list behind the proxy. */
static void print_network(const struct policy *pol)
{
	const struct netpolicy *np = pol->net;
	char *s;

	if (np == NULL) {
		fmt_printf("network: %s\n", pol->network_host ? "host" :
		    "none (loopback only)");
		return;
	}
	fmt_printf("network: http(s) through sbexec's proxy to these hosts only "
	    "(port 443 for https, 80 for http unless given; bwrap only; a "
	    "tunnel carries only TLS naming its host, in every ClientHello "
	    "until the server's ServerHello):\n");
	print_hosts("allow", np->allow, np->nallow, 0);
	print_hosts("deny", np->deny, np->ndeny, 1);
	for (size_t i = 0; i < np->naddrs; i++) {
		s = cidr_str(&np->addrs[i]);
		fmt_printf("  %-10s %s (otherwise refused as a private address)\n",
		    "address", s);
		free(s);
	}
}

static void print_node(const char *label, const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISCHR(st.st_mode))
		fmt_printf("  %-10s %s (%u:%u)\n", label, path,
		    major(st.st_rdev), minor(st.st_rdev));
	else
		fmt_printf("  %-10s %s (not a character device: runs are "
		    "refused)\n", label, path);
}

/* DESIGN 12: each entry of devices, a set as it resolves here. */
static void print_devices(const struct policy *pol)
{
	struct strv m;

	if (pol->devices.n == 0)
		return;
	fmt_printf("devices (beside null, zero, full, random, urandom, tty; "
	    "each opens a kernel driver to the command):\n");
	for (size_t i = 0; i < pol->devices.n; i++) {
		if (!devices_is_set(pol->devices.v[i])) {
			print_node("path", pol->devices.v[i]);
			continue;
		}
		m = (struct strv){ 0 };
		devices_members(pol->devices.v[i], &m);
		if (m.n == 0)
			fmt_printf("  %-10s none here\n", pol->devices.v[i]);
		for (size_t j = 0; j < m.n; j++)
			print_node(pol->devices.v[i], m.v[j]);
		strv_free(&m);
	}
}

/* DESIGN 9: the backend, and whether this kernel can run Landlock. */
static void print_backend(const struct policy *pol)
{
	static const char *const what[] = {
		[BACKEND_BWRAP] = "bwrap (user namespaces)",
		[BACKEND_LANDLOCK] = "landlock (no namespaces)",
		[BACKEND_AUTO] = "auto (bwrap where it can set up, else "
		    "landlock)",
	};
	int abi = landlock_abi();

	fmt_printf("sandbox: %s\n", what[pol->backend]);
	if (pol->backend == BACKEND_BWRAP)
		return;
	if (abi < LANDLOCK_ABI_MIN) {
		fmt_printf("  landlock   none here (not built in, or not in the "
		    "kernel's lsm= list); it will refuse to run\n");
		return;
	}
	fmt_printf("  landlock   ABI %d here; hidden directories can be listed, "
	    "not read; no PID namespace\n", abi);
	if (landlock_cost(abi) != NULL)
		fmt_printf("  landlock   costs here: %s\n", landlock_cost(abi));
}

/* Issue 18, what root reads: where CI containers and cloud hosts keep
 * secrets. Root in the sandbox reads what denyRead does not hide, and in
 * a Kubernetes pod so does any uid. */
static const struct secret {
	const char *path, *what;
} secrets[] = {
	{ "/run/secrets", "Docker secrets, Kubernetes service-account "
	    "tokens" },
	{ "/var/run/secrets", "Docker secrets, Kubernetes service-account "
	    "tokens" },
	{ "/etc/kubernetes", "a Kubernetes node's credentials" },
	{ "/var/lib/cloud", "cloud-init's user-data" },
	{ "/var/lib/docker", "Docker's containers, images and volumes" },
	{ "/etc/ssl/private", "TLS private keys" },
	{ "~/.docker", "Docker registry credentials" },
	{ "~/.kube", "Kubernetes credentials" },
};

/* The rule that decides PATH: the most specific covering it, deny
 * winning at an equal path (DESIGN 2); NULL if none does. */
static const struct fs_rule *deciding_rule(const struct policy *pol,
    const char *path)
{
	const struct fs_rule *best = NULL, *r;

	for (size_t i = 0; i < pol->nrules; i++) {
		r = &pol->rules[i];
		if (r->resolved == NULL || !path_within(path, r->resolved))
			continue;
		if (best == NULL || path_depth(r->resolved) >
		    path_depth(best->resolved) || (path_depth(r->resolved) ==
		    path_depth(best->resolved) && r->kind > best->kind))
			best = r;
	}
	return best;
}

/* Hidden whole: denied, and no rule below it shows a part again. */
static int hidden(const struct policy *pol, const char *path)
{
	const struct fs_rule *r = deciding_rule(pol, path);

	if (r == NULL || r->kind != FS_DENY_READ)
		return 0;
	for (size_t i = 0; i < pol->nrules; i++)
		if (pol->rules[i].kind != FS_DENY_READ &&
		    pol->rules[i].resolved != NULL &&
		    strcmp(pol->rules[i].resolved, path) != 0 &&
		    path_within(pol->rules[i].resolved, path))
			return 0;
	return 1;
}

/* Advice, not a refusal: each secret place that exists on this host,
 * that the invoking user can read, and that POL does not hide. */
static void secret_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	const char *why;
	char *path, *real, *line;

	for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++) {
		path = path_expand(secrets[i].path, &why);
		real = path ? path_resolve(path) : NULL;
		if (real != NULL && access(real, R_OK) == 0 &&
		    !hidden(pol, real)) {
			line = xasprintf("filesystem.denyRead: %s (%s) exists "
			    "here and the command can read it; add \"%s\" to "
			    "denyRead", path, secrets[i].what, secrets[i].path);
			warn(line, arg);
			free(line);
		}
		free(real);
		free(path);
	}
}

/* A rule reached through a link the command may rewrite (links.c): a
 * deny rule follows where a run points it, one that widens access is
 * left out of every run while the link is there. Say so, with the cure. */
static void link_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	static const char *const key[] = {
		[FS_DENY_READ] = "denyRead", [FS_ALLOW_READ] = "allowRead",
		[FS_ALLOW_WRITE] = "allowWrite", [FS_DENY_WRITE] = "denyWrite",
	};
	const struct fs_rule *r;
	char *line;

	for (size_t i = 0; i < pol->nrules; i++) {
		r = &pol->rules[i];
		if (!links_unstable(pol, r))
			continue;
		line = xasprintf("filesystem.%s: %s passes through a symbolic "
		    "link inside a writable path: %s; name the real path",
		    key[r->kind], r->expanded, r->kind == FS_ALLOW_READ ||
		    r->kind == FS_ALLOW_WRITE ? "a run could point it at what "
		    "the rule would then open, so the rule is left out of "
		    "every run while the link is there" : "a run can point it "
		    "elsewhere and move the rule off what it hides or keeps "
		    "read-only (left out where it would hide the working "
		    "directory)");
		warn(line, arg);
		free(line);
	}
}

/* A home directory is where the protected names live, and more that
 * the list cannot name (~/.cache's programs, a language's site
 * directory): an allowWrite that is one, or holds one, is worth a
 * dedicated output directory instead. */
static void home_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	const struct fs_rule *r;
	struct passwd *pw;
	char *home, *line;

	setpwent();
	while ((pw = getpwent()) != NULL) {
		if (pw->pw_dir[0] != '/' || strcmp(pw->pw_dir, "/") == 0 ||
		    (home = path_resolve(pw->pw_dir)) == NULL)
			continue;
		for (size_t i = 0; i < pol->nrules; i++) {
			r = &pol->rules[i];
			if (r->kind != FS_ALLOW_WRITE || r->resolved == NULL ||
			    !path_within(home, r->resolved))
				continue;
			line = xasprintf("filesystem.allowWrite: %s %s the "
			    "home directory %s (%s): its dotfiles run code "
			    "later, and only the protected names are kept "
			    "read-only; give the command an output directory",
			    r->resolved, strcmp(home, r->resolved) ? "holds" :
			    "is", home, pw->pw_name);
			warn(line, arg);
			free(line);
		}
		free(home);
	}
	endpwent();
}

/* Under Landlock each other entry of a directory on the way to a hidden
 * path is a rule of every call (landlock.c); past the bound, the call
 * grants only what it names. Each such directory is said once. */
static void dear_dir(const char *hidden, const char *dir, struct strv *said,
    void (*warn)(const char *, void *), void *arg)
{
	long n;
	char *line;

	for (size_t i = 0; i < said->n; i++)
		if (strcmp(said->v[i], dir) == 0)
			return;
	strv_push(said, dir);
	if ((n = landlock_entries(dir)) <= DEAR_ENTRIES)
		return;
	line = n > LANDLOCK_SIBLINGS_MAX ? xasprintf("landlock: %s is hidden "
	    "in %s, which holds more than %d entries: under the Landlock "
	    "backend a call grants there only the entries its command, "
	    "arguments and working directory name (what a playlist or list "
	    "names beside them is refused)", hidden, dir,
	    LANDLOCK_SIBLINGS_MAX) : xasprintf("landlock: %s is hidden in "
	    "%s, which holds %ld entries: under the Landlock backend each is "
	    "a rule of every call; hide something in a smaller directory if "
	    "calls must be quick", hidden, dir, n);
	warn(line, arg);
	free(line);
}

static void dear_hidden(const char *hidden, struct strv *said,
    void (*warn)(const char *, void *), void *arg)
{
	char *dir = xstrdup(hidden), *slash;

	while ((slash = strrchr(dir, '/')) != NULL && slash != dir) {
		*slash = '\0';
		dear_dir(hidden, dir, said, warn, arg);
	}
	free(dir);
}

/* Not for "bwrap", whose mounts cost the same whatever a directory
 * holds. */
static void landlock_warnings(const struct policy *pol,
    void (*warn)(const char *, void *), void *arg)
{
	struct strv said = { 0 };

	if (pol->backend == BACKEND_BWRAP)
		return;
	for (size_t i = 0; i < pol->nrules; i++)
		if (pol->rules[i].kind == FS_DENY_READ &&
		    pol->rules[i].resolved != NULL)
			dear_hidden(pol->rules[i].resolved, &said, warn, arg);
	if (pol->audit == AUDIT_FILE)
		dear_hidden(pol->audit_path, &said, warn, arg);
	strv_free(&said);
}

/* Item 7 of issue 19: a command that fills the audit's filesystem
 * refuses every later run (a record that cannot be written stops it),
 * until the space is freed. The room reserved keeps the end record of
 * each run already started, not the runs to come. */
static void disk_warnings(const struct policy *pol, const char *audit,
    void (*warn)(const char *, void *), void *arg)
{
	struct stat a, w;
	char *line, *dir;
	const struct fs_rule *r;

	dir = xstrdup(audit);
	*strrchr(dir, '/') = '\0';
	if (stat(audit, &a) < 0 && stat(*dir ? dir : "/", &a) < 0) {
		free(dir);
		return;
	}
	free(dir);
	for (size_t i = 0; i < pol->nrules; i++) {
		r = &pol->rules[i];
		if (r->kind != FS_ALLOW_WRITE || r->resolved == NULL ||
		    stat(r->resolved, &w) < 0 || w.st_dev != a.st_dev)
			continue;
		line = xasprintf("filesystem.allowWrite: %s shares a "
		    "filesystem with the audit file %s: a command that fills "
		    "it refuses every later run until space is freed; keep the "
		    "audit on a filesystem of its own", r->resolved, audit);
		warn(line, arg);
		free(line);
	}
}

/* What each sink is worth (DESIGN 12): said, not counted as a warning,
 * since stderr is the default and fine for a person at a terminal. */
static void print_audit(const struct policy *pol)
{
	fmt_printf("audit: %s\n", sink_why() != NULL ? sink_why() :
	    sink_name(pol));
	if (pol->audit == AUDIT_STDERR)
		fmt_printf("  records on stderr are for people, not evidence: the "
		    "command writes to the same stream and can print lines "
		    "that look like records; for evidence set \"audit\" to a "
		    "file or \"syslog\"\n");
}

static void print_warning(const char *line, void *count)
{
	fmt_printf("warning: %s\n", line);
	++*(int *)count;
}

/* Where a run's cgroup goes from here, with its controllers; or why
 * there is none, and what that does to the run-wide limits. */
static void print_cgroup(const struct limits *l)
{
	struct cgroup cg;
	char *ctl;
	int run_wide = l->run_memory_bytes || l->run_tasks ||
	    l->run_cpu_seconds;

	if (cgroup_where(&cg, &ctl) == 0) {
		fmt_printf("  %-16s v%d, each run's under %s (controllers: %s)\n",
		    "cgroup", cg.version, cg.base, *ctl ? ctl : "none");
		fmt_printf("  %-16s %s\n", "socket buffers",
		    cgroup_sockets(&cg));
		free(ctl);
		return;
	}
	fmt_printf("  %-16s none here (%s): %s\n", "cgroup", cg.why, !run_wide ?
	    "runs go on; the teardown walks /proc" : l->cgroup_optional ?
	    "the run-wide limits are not enforced, loudly" :
	    "runs are refused (limits.cgroup: \"optional\" lets them run)");
}

/* What the command may touch and use: the top level's, or a command's
 * own (DESIGN 10). */
static void print_unsandboxed(const struct policy *pol);

static void print_body(const struct policy *pol)
{
	fmt_printf("filesystem (everything else read-only):\n");
	print_rules(pol, FS_DENY_READ, "hidden");
	print_rules(pol, FS_ALLOW_READ, "readable");
	print_rules(pol, FS_ALLOW_WRITE, "writable");
	print_rules(pol, FS_DENY_WRITE, "read-only");
	if (pol->private_tmp)
		fmt_printf("  /tmp       empty, private, at most %lld bytes\n",
		    pol->limits.tmp_bytes);
	else
		fmt_printf("  /tmp       the host's, read-only unless allowWrite "
		    "says otherwise\n");
	print_devices(pol);
	print_backend(pol);
	print_network(pol);
	print_families(pol);
	print_unsandboxed(pol);
}

/* What applies to every command, bypassed ones too. */
static void print_unsandboxed(const struct policy *pol)
{
	const struct limits *l = &pol->limits;

	fmt_printf("environment: ");
	if (pol->inherit_host_env)
		fmt_printf("the whole host environment\n");
	else
		for (size_t i = 0; i <= pol->nenv_allow; i++)
			fmt_printf(i == pol->nenv_allow ? "\n" : i ? " %s" : "%s",
			    pol->env_allow[i]);
	fmt_printf("limits:\n  %-16s %lld ms, then KILL after %lld ms\n",
	    "timeout", l->timeout_ms, l->kill_after_ms);
	print_limit("maxOutputBytes", l->max_output_bytes);
	print_limit("cpuSeconds", l->cpu_seconds);
	print_limit("memoryBytes", l->memory_bytes);
	print_limit("fileSizeBytes", l->file_size_bytes);
	print_limit("openFiles", l->open_files);
	print_limit("processes", l->processes);
	print_limit("runMemoryBytes", l->run_memory_bytes);
	print_limit("runTasks", l->run_tasks);
	print_limit("runCpuSeconds", l->run_cpu_seconds);
	print_cgroup(l);
}

struct prefixed {
	const char *name;
	int count;
};

static void print_command_warning(const char *line, void *arg)
{
	struct prefixed *p = arg;

	fmt_printf("warning: %s: %s\n", p->name, line);
	p->count++;
}

/* Each command with a policy of its own, in full, with its warnings. */
static int print_own(const struct command *cmd)
{
	struct prefixed p = { cmd->name, 0 };
	const struct strv *o = &cmd->own->overrides;

	fmt_printf("\ncommand %s, its own policy (sets", cmd->name);
	for (size_t i = 0; i < o->n; i++)
		fmt_printf("%s %s", i ? "," : "", o->v[i]);
	fmt_printf("%s):\n", o->n ? "" : " nothing");
	if (cmd->bypass) {
		fmt_printf("BYPASS: no sandbox, no filesystem or network rules; "
		    "only these apply:\n");
		print_unsandboxed(cmd->own);
	} else {
		print_body(cmd->own);
	}
	policy_warnings(cmd->own, print_command_warning, &p);
	secret_warnings(cmd->own, print_command_warning, &p);
	home_warnings(cmd->own, print_command_warning, &p);
	link_warnings(cmd->own, print_command_warning, &p);
	landlock_warnings(cmd->own, print_command_warning, &p);
	if (cmd->own->audit == AUDIT_FILE)
		disk_warnings(cmd->own, cmd->own->audit_path,
		    print_command_warning, &p);
	return p.count;
}

int check_print(const struct policy *pol)
{
	int warnings = 0;

	fmt_printf("policy %s (sha256 %s)\ncommands (anything else is denied):\n",
	    pol->file, pol->sha256);
	for (size_t i = 0; i < pol->ncmds; i++)
		fmt_printf("  %-10s %s%s%s\n", pol->cmds[i].name,
		    pol->cmds[i].path,
		    pol->cmds[i].bypass ? "  BYPASS: no sandbox" : "",
		    pol->cmds[i].own ? "  (its own policy, below)" : "");
	print_body(pol);
	print_audit(pol);
	policy_warnings(pol, print_warning, &warnings);
	secret_warnings(pol, print_warning, &warnings);
	home_warnings(pol, print_warning, &warnings);
	link_warnings(pol, print_warning, &warnings);
	landlock_warnings(pol, print_warning, &warnings);
	if (pol->audit == AUDIT_FILE)
		disk_warnings(pol, pol->audit_path, print_warning, &warnings);
	for (size_t i = 0; i < pol->ncmds; i++)
		if (pol->cmds[i].own != NULL)
			warnings += print_own(&pol->cmds[i]);
	fmt_printf("%s: %d warning%s\n", pol->file, warnings,
	    warnings == 1 ? "" : "s");
	return 0;
}

/* DIR/NAME -> sbexec for every command; a correct link is left alone
 * and anything else at that name is an error, never replaced. */
int link_commands(const struct policy *pol, const char *dir)
{
	char self[PATH_MAX], cur[PATH_MAX], *path;
	struct stat st;
	ssize_t n;
	int rc = 0;

	/* Said once, not once per command: sbexec makes links, never the
	 * directory they go in (where it is, who owns it, is the admin's). */
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		warnx("%s: %s; make it first (install -d %s)", dir,
		    stat(dir, &st) < 0 ? strerror(errno) : "not a directory",
		    dir);
		return EXIT_SBEXEC;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n >= 0)
		self[n] = '\0';
	else
		die(EXIT_SBEXEC, "cannot find sbexec's own path");
	for (size_t i = 0; i < pol->ncmds; i++) {
		path = xasprintf("%s/%s", dir, pol->cmds[i].name);
		n = readlink(path, cur, sizeof(cur) - 1);
		if (n >= 0 && (size_t)n == strlen(self) &&
		    memcmp(cur, self, (size_t)n) == 0) {
			fmt_printf("%s: already a link to %s\n", path, self);
		} else if (n >= 0 || errno != ENOENT) {
			warnx("%s: exists and is not a link to %s; refused",
			    path, self);
			rc = EXIT_SBEXEC;
		} else if (symlink(self, path) < 0) {
			warnx("%s: %s", path, strerror(errno));
			rc = EXIT_SBEXEC;
		} else {
			fmt_printf("%s -> %s\n", path, self);
		}
		free(path);
	}
	return rc;
}
