/* sandbox.c: translate the policy into bubblewrap options. Mounts are
 * emitted least specific first, so that the most specific path wins;
 * at an equal path the rules were merged so that deny wins. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path.h"
#include "quote.h"
#include "sandbox.h"

/* MAX_ARG_STRLEN: the kernel's limit for one argument, NUL included. */
#define ARG_STRLEN_MAX (32 * 4096 - 1)

/* Writing these later runs code on the host: they stay read-only inside
 * every allowWrite path (DESIGN 2). .zshenv, .zlogin and .bash_login
 * are read by the same shells as their listed siblings (zsh -c reads
 * .zshenv before anything else), so they are here too. */
static const char *const protected_names[] = {
	".git", ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile",
	".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".envrc", ".vscode", ".idea",
};

enum view { HIDDEN, READ_ONLY, WRITABLE };

struct mount {
	char *path;		/* resolved */
	enum fs_kind kind;
	char *why;		/* the rule, for messages */
	int protect;		/* read-only whatever the policy says */
};

struct plan {
	struct mount *m;
	size_t n;
};

/* Merge a rule into the plan; at an equal path the larger kind (deny)
 * wins. Takes ownership of WHY. */
static struct mount *plan_add(struct plan *p, const char *path,
    enum fs_kind kind, char *why)
{
	struct mount *m;

	for (m = p->m; m < p->m + p->n; m++)
		if (strcmp(m->path, path) == 0) {
			if (kind > m->kind) {
				m->kind = kind;
				free(m->why);
				m->why = why;
			} else {
				free(why);
			}
			return m;
		}
	p->m = xreallocarray(p->m, p->n + 1, sizeof(*p->m));
	m = &p->m[p->n++];
	*m = (struct mount){ xstrdup(path), kind, why, 0 };
	return m;
}

static const char *const kind_key[] = {
	[FS_ALLOW_READ] = "filesystem.allowRead",
	[FS_ALLOW_WRITE] = "filesystem.allowWrite",
	[FS_DENY_WRITE] = "filesystem.denyWrite",
	[FS_DENY_READ] = "filesystem.denyRead",
};

static int by_depth(const void *a, const void *b)
{
	const struct mount *x = a, *y = b;
	size_t dx = path_depth(x->path), dy = path_depth(y->path);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The view at PATH given the mounts before index END: that of the most
 * specific one covering it, else the read-only root. */
static enum view view_at(const struct plan *p, size_t end, const char *path)
{
	const struct mount *best = NULL;

	for (size_t i = 0; i < end; i++)
		if (path_within(path, p->m[i].path) && (best == NULL ||
		    path_depth(p->m[i].path) > path_depth(best->path)))
			best = &p->m[i];
	if (best == NULL)
		return READ_ONLY;
	switch (best->kind) {
	case FS_DENY_READ:	return HIDDEN;
	case FS_ALLOW_WRITE:	return WRITABLE;
	case FS_DENY_WRITE:	return view_at(p, (size_t)(best - p->m),
				    path) == HIDDEN ? HIDDEN : READ_ONLY;
	default:		return READ_ONLY;
	}
}

static void plan_sort(struct plan *p)
{
	qsort(p->m, p->n, sizeof(*p->m), by_depth);
}

static void plan_rules(const struct policy *pol, struct plan *p)
{
	const struct fs_rule *r;
	char *tmp;

	for (r = pol->rules; r < pol->rules + pol->nrules; r++)
		if (r->resolved != NULL)
			plan_add(p, r->resolved, r->kind, xasprintf("%s \"%s\"",
			    kind_key[r->kind], r->path));
	if (pol->private_tmp && (tmp = path_resolve("/tmp")) != NULL) {
		plan_add(p, tmp, FS_DENY_READ,
		    xstrdup("filesystem.privateTmp"));
		free(tmp);
	}
	plan_sort(p);
}

static void protect(struct plan *p, const char *path)
{
	struct mount *m;

	if (view_at(p, p->n, path) != WRITABLE)
		return;
	m = plan_add(p, path, FS_DENY_WRITE, xstrdup("protected name"));
	m->protect = 1;
	plan_sort(p);
}

/* Protected names, and sbexec's own policy and audit file, stay
 * read-only; so does anything below them, whatever the policy says. */
static void plan_protect(const struct policy *pol, struct plan *p)
{
	struct strv cand = { 0 };
	struct stat st;
	size_t i, j;
	char *path;

	for (i = 0; i < p->n; i++)
		for (j = 0; p->m[i].kind == FS_ALLOW_WRITE &&
		    j < sizeof(protected_names) / sizeof(*protected_names); j++) {
			path = xasprintf("%s/%s", strcmp(p->m[i].path, "/") ?
			    p->m[i].path : "", protected_names[j]);
			if (lstat(path, &st) == 0)
				strv_push(&cand, path);
			free(path);
		}
	for (i = 0; i < 2; i++) {
		path = path_resolve(i == 0 ? pol->file : pol->audit_path ?
		    pol->audit_path : "");
		if (path != NULL)
			strv_push(&cand, path);
		free(path);
	}
	for (i = 0; i < cand.n; i++)
		protect(p, cand.v[i]);
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->n; j++)
			if (p->m[j].protect && p->m[i].kind == FS_ALLOW_WRITE &&
			    path_within(p->m[i].path, p->m[j].path))
				p->m[i].kind = FS_DENY_WRITE;
	strv_free(&cand);
}

static void push3(struct strv *out, const char *opt, const char *a,
    const char *b)
{
	strv_push(out, opt);
	strv_push(out, a);
	if (b != NULL)
		strv_push(out, b);
}

/* One mount, unless what lies above it already gives the same view. */
static void emit(const struct plan *p, size_t i, struct strv *out)
{
	const struct mount *m = &p->m[i];
	enum view above = view_at(p, i, m->path);
	struct stat st;

	switch (m->kind) {
	case FS_DENY_READ:
		if (above == HIDDEN)
			return;
		if (stat(m->path, &st) == 0 && S_ISDIR(st.st_mode))
			push3(out, "--tmpfs", m->path, NULL);
		else
			push3(out, "--ro-bind", "/dev/null", m->path);
		return;
	case FS_ALLOW_WRITE:
		if (above != WRITABLE)
			push3(out, "--bind", m->path, m->path);
		return;
	case FS_DENY_WRITE:
		if (above == WRITABLE)
			push3(out, "--ro-bind", m->path, m->path);
		return;
	case FS_ALLOW_READ:
		if (above != READ_ONLY)
			push3(out, "--ro-bind", m->path, m->path);
		return;
	}
}

/* The caller's relative paths point into its working directory: refuse
 * rather than hide it silently or fail inside bwrap (DESIGN 2). */
static int check_cwd(const struct plan *p, const char *cwd)
{
	const struct mount *best = NULL;

	if (view_at(p, p->n, cwd) != HIDDEN)
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->m[i].kind == FS_DENY_READ &&
		    path_within(cwd, p->m[i].path))
			best = &p->m[i];
	fprintf(stderr, "sbexec: the working directory %s is hidden by %s; "
	    "add it to filesystem.allowRead or run from another directory\n",
	    cwd, best ? best->why : "the policy");
	return -1;
}

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->m[i].path);
		free(p->m[i].why);
	}
	free(p->m);
}

static void push_fd(struct strv *out, const char *opt, int fd)
{
	char buf[16];

	if (fd < 0)
		return;
	snprintf(buf, sizeof(buf), "%d", fd);
	push3(out, opt, buf, NULL);
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
    char *const *args, const struct sandbox_io *io, struct strv *out)
{
	struct plan p = { 0 };

	plan_rules(pol, &p);
	plan_protect(pol, &p);
	plan_sort(&p);
	if (check_cwd(&p, io->cwd) < 0) {
		plan_free(&p);
		return -1;
	}
	strv_push(out, pol->bwrap);
	strv_pushn(out, head, sizeof(head) / sizeof(*head));
	if (pol->network_host)
		strv_push(out, "--share-net");
	if (pol->weaker_nested)
		push3(out, "--bind", "/proc", "/proc");
	else
		push3(out, "--proc", "/proc", NULL);
	for (size_t i = 0; i < p.n; i++)
		emit(&p, i, out);
	push3(out, "--chdir", io->cwd, NULL);
	push_fd(out, "--json-status-fd", io->status_fd);
	push_fd(out, "--seccomp", io->seccomp_fd);
	strv_push(out, "--");
	push_command(pol, cmd, args, out);
	plan_free(&p);
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
