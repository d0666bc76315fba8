/* sandbox.c: the bubblewrap command line (namespaces, mounts from
 * mounts.c, the command string from quote.c) and the seccomp filter. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mounts.h"
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

int sandbox_argv(const struct policy *pol, const struct command *cmd,
    char *const *args, const struct sandbox_io *io, struct strv *out,
    char **why)
{
	struct plan p;
	int status = mounts_plan(pol, io->cwd, &p);

	if (status != 0) {
		*why = xstrdup(p.why);
		mounts_free(&p);
		return status;
	}
	strv_push(out, pol->bwrap);
	strv_pushn(out, head, sizeof(head) / sizeof(*head));
	if (pol->network_host)
		strv_push(out, "--share-net");
	if (pol->weaker_nested)
		strv_add(out, "--bind", "/proc", "/proc");
	else
		strv_add(out, "--proc", "/proc", NULL);
	mounts_emit(&p, out);
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

int sandbox_seccomp(const struct policy *pol)
{
	const unsigned char *bpf = pol->allow_unix_sockets ?
	    seccomp_filter_unix : seccomp_filter;
	unsigned long len = pol->allow_unix_sockets ?
	    seccomp_filter_unix_len : seccomp_filter_len;
	int fd[2];

	/* A few hundred bytes: the pipe's buffer takes it without a reader. */
	if (pipe2(fd, O_CLOEXEC) < 0)
		die(EXIT_SBEXEC, "pipe");
	if (write(fd[1], bpf, len) != (ssize_t)len)
		die(EXIT_SBEXEC, "seccomp filter");
	close(fd[1]);
	return fd[0];
}
