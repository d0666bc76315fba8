/* sandbox.c: the bubblewrap command line (namespaces, mounts from
 * mounts.c, the command string from quote.c) and the seccomp filter. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fmt.h"
#include "prof.h"
#include "quote.h"
#include "sandbox/filter.h"
#include "sandbox/handin.h"
#include "sandbox/kernfs.h"
#include "sandbox/launch.h"
#include "sandbox/mapwatch.h"
#include "sandbox/noexec.h"
#include "sandbox/sandbox.h"

/* MAX_ARG_STRLEN: the kernel's limit for one argument, NUL included. */
#define ARG_STRLEN_MAX (32 * 4096 - 1)

static void push_fd(struct strv *out, const char *opt, int fd)
{
	char buf[16];

	if (fd < 0)
		return;
	fmt_snprintf(buf, sizeof(buf), "%d", fd);
	strv_add(out, opt, buf, NULL);
}

/* The command itself, path and arguments; with a binShell, that shell
 * as binShell -c "exec 'path' 'arg' ...", or positionally when that
 * string would pass the kernel's limit for one argument. Without one
 * (the default) no interpreter stands in the chain. */
static void push_command(const struct policy *pol, const struct command *cmd,
    char *const *args, struct strv *out)
{
	struct strv argv = { 0 };
	char *line;

	strv_push(&argv, cmd->path);
	for (; *args != NULL; args++)
		strv_push(&argv, *args);
	if (pol->bin_shell == NULL) {
		strv_pushn(out, (const char *const *)argv.v, argv.n);
		strv_free(&argv);
		return;
	}
	strv_push(out, pol->bin_shell);
	strv_push(out, "-c");
	line = quote_command(argv.v, ARG_STRLEN_MAX);
	if (line != NULL) {
		strv_push(out, line);
		free(line);
	} else {
		strv_push(out, "exec \"$0\" \"$@\"");
		strv_pushn(out, (const char *const *)argv.v, argv.n);
	}
	strv_free(&argv);
}

static const char *const head[] = {
	"--die-with-parent", "--new-session", "--unshare-all",
	"--unshare-user", "--disable-userns", "--cap-drop", "ALL",
	"--ro-bind", "/", "/", "--dev", "/dev",
};

/* enableWeakerNestedSandbox: the host's /proc, bound recursively. */
static void weaker_proc(struct strv *out, struct expect *e)
{
	struct stat st;

	strv_add(out, "--bind", "/proc", "/proc");
	if (stat("/proc", &st) == 0)
		expect_mount(e, "/proc", EXPECT_BIND, st.st_dev, st.st_ino);
}

/* A device the filesystem rules hide is refused on either backend: the
 * policy says two things of one node, and Landlock's rule on the node
 * would quietly win over the denyRead. */
static int devices_shown(const struct plan *p, const struct devices *d,
    char **why)
{
	for (size_t i = 0; i < d->n; i++)
		if (mounts_hides(p, d->v[i].path)) {
			*why = xasprintf("devices: %s lies inside what the "
			    "policy hides (filesystem.denyRead, privateTmp or "
			    "the audit's directory); hide it or admit it, not "
			    "both", d->v[i].path);
			return -1;
		}
	return 0;
}

/* Each device bound by its descriptor: bwrap 0.8 has no --dev-bind-fd,
 * and its --bind-fd mounts nodev (no device opens), so the source is
 * the descriptor's /proc/self/fd link, which mount(2) follows to the
 * object itself, not to a name. After every other mount, so that none
 * covers it; verify.c checks what lies there. */
static void bind_devices(const struct devices *d, struct strv *out,
    struct fdv *keep, struct expect *e)
{
	char src[32];
	int fd;

	for (size_t i = 0; i < d->n; i++) {
		if ((fd = fcntl(d->v[i].fd, F_DUPFD_CLOEXEC, 10)) < 0)
			die(EXIT_SBEXEC, "devices: %s", d->v[i].path);
		fmt_snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
		strv_add(out, "--dev-bind", src, d->v[i].path);
		expect_mount(e, d->v[i].path, EXPECT_BIND, d->v[i].dev,
		    d->v[i].ino);
		keep->v = xreallocarray(keep->v, keep->n + 1,
		    sizeof(*keep->v));
		keep->v[keep->n++] = fd;
	}
}

/* DESIGN 13: the trees bound executable once every mount is noexec
 * (mntns.c's helper, after bwrap's last mount). One the plan hides
 * (denyRead, privateTmp's /tmp) has nothing to execute: left out. */
static void exec_trees(const struct policy *pol, const struct command *cmd,
    const struct plan *p, struct expect *e)
{
	struct strv t = { 0 };

	noexec_trees(pol, cmd, &t);
	for (size_t i = 0; i < t.n; i++)
		if (!mounts_hides(p, t.v[i]))
			expect_exec(e, t.v[i]);
	strv_free(&t);
}

/* What the plan says of links in writable places, for the caller. */
static void take_links(struct sandbox_io *io, const struct plan *p)
{
	strv_pushn(&io->masked, (const char *const *)p->masked.v, p->masked.n);
	strv_pushn(&io->masked_why, (const char *const *)p->masked_why.v,
	    p->masked_why.n);
	strv_pushn(&io->left, (const char *const *)p->left.v, p->left.n);
}

static int sandbox_argv(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    char **why)
{
	struct final fin;
	struct plan p;
	int status = mounts_plan(pol, io->cwd, &p);

	prof_mark("mount plan: paths, trust, links, audit, protected names");
	if (status == 0 && devices_shown(&p, &io->devices, &p.why) < 0)
		status = EXIT_SBEXEC;
	if (status != 0) {
		*why = xstrdup(p.why);
		mounts_free(&p);
		return status;
	}
	if (expect_base(&io->expect, !pol->weaker_nested) < 0) {
		*why = xasprintf("cannot read /proc/self/mountinfo, which the "
		    "sandbox is checked against");
		mounts_free(&p);
		return EXIT_SBEXEC;
	}
	strv_push(out, pol->bwrap);
	strv_pushn(out, head, sizeof(head) / sizeof(*head));
	if (pol->network_host)
		strv_push(out, "--share-net");
	if (pol->weaker_nested)
		weaker_proc(out, &io->expect);
	else
		strv_add(out, "--proc", "/proc", NULL);
	kernfs_emit(out, &io->expect);
	mounts_emit(&p, out, &io->keep, &io->expect);
	bind_devices(&io->devices, out, &io->keep, &io->expect);
	exec_trees(pol, cmd, &p, &io->expect);
	/* bwrap's /dev is a tmpfs: read-only, it holds no RAM (its device
	 * nodes stay writable). Last, so that mounts below it can be made. */
	strv_add(out, "--remount-ro", "/dev", NULL);
	take_links(io, &p);
	strv_add(out, "--chdir", io->cwd, NULL);
	push_fd(out, "--json-status-fd", io->status_fd);
	push_fd(out, "--seccomp", io->seccomp_fd);
	strv_push(out, "--");
	handin_pick(pol->limits.max_output_bytes > 0, &io->keep, io->handin);
	final_of(pol, cmd->path, &fin);
	launch_push(out, &io->keep, io->envp, &fin, io->handin); /* only 0-2 */
	strv_free(&fin.programs);
	push_command(pol, cmd, args, out);
	if (io->trial) {
		io->plan = xmalloc(sizeof(*io->plan));
		*io->plan = p;
	} else {
		mounts_free(&p);
	}
	return 0;
}


static char *cannot(const char *line)
{
	return xasprintf("bwrap cannot set up a sandbox here (%s)", *line ?
	    line : "no message");
}

/* auto where sbexec cannot hold back what bwrap says (--dry-run, stderr
 * not copied): can bwrap set up a sandbox here? One of nothing, with
 * the same namespaces, /proc and /dev as the real one: its exit status
 * decides, as a real run would fail (refused unshare, uid_map, "Can't
 * mount proc", loopback). *WHY gets bwrap's first line when it cannot. */
static int bwrap_works(const struct policy *pol, char **why)
{
	struct strv argv = { 0 };
	struct fdv keep = { 0 };
	char buf[512] = "";
	int p[2], st = -1;
	ssize_t n = 0;
	pid_t pid;

	strv_push(&argv, pol->bwrap);
	strv_pushn(&argv, head, sizeof(head) / sizeof(*head));
	strv_add(&argv, pol->weaker_nested ? "--bind" : "--proc", "/proc",
	    pol->weaker_nested ? "/proc" : NULL);
	strv_push(&argv, "--");
	launch_push_nothing(&argv, &keep);
	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0)
		die(EXIT_SBEXEC, "bwrap preflight");
	if (pid == 0) {
		dup2(p[1], 2);
		dup2(open("/dev/null", O_RDWR | O_CLOEXEC), 1);
		fcntl(keep.v[0], F_SETFD, 0);	/* bwrap execs it */
		execve(argv.v[0], argv.v, (char *[]){ NULL });
		_exit(127);
	}
	close(keep.v[0]);
	free(keep.v);
	close(p[1]);
	for (ssize_t r; (size_t)n < sizeof(buf) - 1 && (r = read(p[0],
	    buf + n, sizeof(buf) - 1 - (size_t)n)) > 0; n += r)
		;
	close(p[0]);
	waitpid(pid, &st, 0);
	strv_free(&argv);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 1;
	buf[strcspn(buf, "\n")] = '\0';
	*why = cannot(buf);
	return 0;
}

static int landlock_argv(const struct policy *pol,
    const struct command *cmd, char *const *args, struct sandbox_io *io,
    struct strv *out, char **why)
{
	struct strv named = { 0 };
	int status;

	io->backend = BACKEND_LANDLOCK;
	if (pol->net != NULL) {
		*why = xasprintf("network: an allow-list needs the bwrap "
		    "backend, whose network namespace holds only the proxy; "
		    "Landlock cannot confine the command to it%s%s%s",
		    io->fallback ? " (" : "", io->fallback ? io->fallback : "",
		    io->fallback ? ")" : "");
		return EXIT_SBEXEC;
	}
	strv_push(&named, cmd->path);
	for (char *const *a = args; *a != NULL; a++)
		strv_push(&named, *a);
	if (io->plan == NULL) {
		io->plan = xmalloc(sizeof(*io->plan));
		status = mounts_plan(pol, io->cwd, io->plan);
		prof_mark("mount plan: paths, trust, links, audit, "
		    "protected names");
	} else {
		status = 0;
	}
	if (status == 0 && devices_shown(io->plan, &io->devices, why) < 0)
		status = EXIT_SBEXEC;
	else if (status != 0)
		*why = xstrdup(io->plan->why);
	if (status == 0 && (status = landlock_plan(pol, io->cwd, named.v,
	    io->plan, &io->devices, &io->landlock)) != 0)
		*why = xstrdup(io->landlock.why);
	strv_free(&named);
	prof_mark("Landlock ruleset: a rule per granted entry");
	if (status == 0) {
		take_links(io, io->plan);
		final_of(pol, cmd->path, &io->landlock.fin);
		if (mapwatch_pair(&io->landlock.map_parent,
		    &io->landlock.fin.map_sock) < 0) {
			*why = xasprintf("socketpair: %s", strerror(errno));
			status = EXIT_SBEXEC;
		}
	}
	mounts_free(io->plan);
	free(io->plan);
	io->plan = NULL;
	if (status != 0)
		return status;
	push_command(pol, cmd, args, out);
	return 0;
}

int sandbox_build(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    char **why)
{
	io->landlock.ruleset = -1;
	io->backend = BACKEND_BWRAP;
	if (devices_open(&pol->devices, &io->devices, why) < 0)
		return EXIT_SBEXEC;
	io->trial = pol->backend == BACKEND_AUTO && io->can_try;
	if (pol->backend == BACKEND_LANDLOCK || (pol->backend ==
	    BACKEND_AUTO && !io->trial && !bwrap_works(pol, &io->fallback)))
		return landlock_argv(pol, cmd, args, io, out, why);
	return sandbox_argv(pol, cmd, args, io, out, why);
}

int sandbox_fallback(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    const char *reason, char **why)
{
	for (size_t i = 0; i < io->keep.n; i++)
		close(io->keep.v[i]);
	io->keep.n = 0;
	strv_free(&io->masked);
	strv_free(&io->masked_why);
	strv_free(&io->left);
	strv_free(out);
	io->trial = 0;
	io->fallback = cannot(reason ? reason : "");
	return landlock_argv(pol, cmd, args, io, out, why);
}

void sandbox_seccomp(const struct policy *pol, struct seccomp_feed *f)
{
	int v = FILTER_INET | (pol->allow_unix_sockets ? FILTER_UNIX : 0) |
	    (pol->devices.n > 0 ? FILTER_DEVICES : 0);
	size_t len, total, first;
	unsigned char *bpf = filter_make(v, &len);
	/* BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS (linux/filter.h and
	 * linux/seccomp.h, which musl's headers do not carry). */
	const struct { uint16_t code; uint8_t jt, jf; uint32_t k; } kill = {
		0x06, 0, 0, 0x80000000U };
	unsigned char *buf;
	int fd[2];

	if (pipe2(fd, O_CLOEXEC) < 0)
		die(EXIT_SBEXEC, "pipe");
	/* One page, the smallest pipe buffer there is, holds one buffer of
	 * what is written, so POLLOUT says that bwrap has read all of it
	 * (on_feed): a program shorter than a page goes first, whole, and
	 * one return that no path reaches waits for the check. Where the
	 * pipe keeps more (F_SETPIPE_SZ refused), it is filled first, the
	 * program padded with such returns: the kernel compiles each, 46 us
	 * for a page of them. */
	fcntl(fd[1], F_SETPIPE_SZ, 4096);
	first = (size_t)fcntl(fd[1], F_GETPIPE_SZ);
	if (first == (size_t)getpagesize() && len < first)
		first = len;
	total = len > first ? len : first + sizeof(kill);
	buf = xmalloc(total);
	memcpy(buf, bpf, len);
	for (size_t at = len; at < total; at += sizeof(kill))
		memcpy(buf + at, &kill, sizeof(kill));
	if (write(fd[1], buf, first) != (ssize_t)first)
		die(EXIT_SBEXEC, "seccomp filter");
	fcntl(fd[1], F_SETFL, O_NONBLOCK);
	f->rd = fd[0];
	f->wr = fd[1];
	f->len = total - first;
	f->rest = xmalloc(f->len);
	memcpy(f->rest, buf + first, f->len);
	free(buf);
	free(bpf);
}
