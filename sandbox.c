/* sandbox.c: the bubblewrap command line (namespaces, mounts from
 * mounts.c, the command string from quote.c) and the seccomp filter. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "quote.h"
#include "sandbox.h"

/* MAX_ARG_STRLEN: the kernel's limit for one argument, NUL included. */
#define ARG_STRLEN_MAX (32 * 4096 - 1)

static void push_fd(struct strv *out, const char *opt, int fd)
{
	char buf[16];

	if (fd < 0)
		return;
	snprintf(buf, sizeof(buf), "%d", fd);
	strv_add(out, opt, buf, NULL);
}

/* binShell -c "exec 'path' 'arg' ...", or positionally when that string
 * would pass the kernel's limit for one argument. */
static void push_command(const struct policy *pol, const struct command *cmd,
    char *const *args, struct strv *out)
{
	struct strv argv = { 0 };
	char *line;

	strv_push(&argv, cmd->path);
	for (; *args != NULL; args++)
		strv_push(&argv, *args);
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

int sandbox_argv(const struct policy *pol, const struct command *cmd,
    char *const *args, struct sandbox_io *io, struct strv *out,
    char **why)
{
	struct plan p;
	int status = mounts_plan(pol, io->cwd, &p);

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
	mounts_emit(&p, out, &io->keep, &io->expect);
	/* bwrap's /dev is a tmpfs: read-only, it holds no RAM (its device
	 * nodes stay writable). Last, so that mounts below it can be made. */
	strv_add(out, "--remount-ro", "/dev", NULL);
	strv_pushn(&io->masked, (const char *const *)p.masked.v, p.masked.n);
	strv_add(out, "--chdir", io->cwd, NULL);
	push_fd(out, "--json-status-fd", io->status_fd);
	push_fd(out, "--seccomp", io->seccomp_fd);
	strv_push(out, "--");
	push_command(pol, cmd, args, out);
	mounts_free(&p);
	return 0;
}

/* Built by tools/seccomp-gen.c with libseccomp at build time. */
extern const unsigned char seccomp_filter[], seccomp_filter_unix[];
extern const unsigned long seccomp_filter_len, seccomp_filter_unix_len;

void sandbox_seccomp(const struct policy *pol, struct seccomp_feed *f)
{
	const unsigned char *bpf = pol->allow_unix_sockets ?
	    seccomp_filter_unix : seccomp_filter;
	size_t len = pol->allow_unix_sockets ? seccomp_filter_unix_len :
	    seccomp_filter_len, total, first;
	/* BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS (linux/filter.h and
	 * linux/seccomp.h, which musl's headers do not carry). */
	const struct { uint16_t code; uint8_t jt, jf; uint32_t k; } kill = {
		0x06, 0, 0, 0x80000000U };
	unsigned char *buf;
	int fd[2];

	if (pipe2(fd, O_CLOEXEC) < 0)
		die(EXIT_SBEXEC, "pipe");
	/* One page: the smallest pipe buffer there is. */
	fcntl(fd[1], F_SETPIPE_SZ, 4096);
	first = (size_t)fcntl(fd[1], F_GETPIPE_SZ);
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
}
