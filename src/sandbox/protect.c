/* protect.c: the protected names. Writing them runs code on the host
 * later, so the existing ones at the top of every writable mount are
 * bound read-only, whatever the policy says (DESIGN 2); one that is a
 * link keeps its target read-only and is listed in masked. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path.h"
#include "sandbox/mountplan.h"

/* Writing these later runs code on the host: they stay read-only inside
 * every allowWrite path (DESIGN 2), with all below them. Each is read
 * and run by something the user runs: git (hooks, config, submodules);
 * bash, zsh, ksh and mksh at start and at logout (.bash_aliases from
 * Debian's .bashrc, .kshrc through ENV); readline (.inputrc: a macro
 * types a command); direnv; editors and IDEs (.vimrc, .exrc, .vscode,
 * .idea); the X session; gpg's agent (pinentry-program); npm
 * (script-shell); .local, whose bin Debian's .profile puts first on
 * PATH; .config, with autostart, systemd user units, git and fish
 * among its files; .ssh (authorized_keys, config's ProxyCommand). */
static const char *const protected_names[] = {
	".git", ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile",
	".bash_login", ".bash_logout", ".bash_aliases", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc",
	".mkshrc", ".inputrc", ".envrc", ".vimrc", ".exrc", ".vscode",
	".idea", ".xprofile", ".xsessionrc", ".xinitrc", ".gnupg", ".npmrc",
	".local", ".config", ".ssh",
};

/* Keep PATH read-only, bound from FD (taken over; -1: opened later). */
static void protect(struct plan *p, const char *path, int fd)
{
	struct mount *m;

	if (plan_view(p, p->n, path) != WRITABLE) {
		if (fd >= 0)
			close(fd);
		return;
	}
	m = plan_add(p, path, FS_DENY_WRITE, xstrdup("protected name"));
	m->protect = 1;
	if (m->fd < 0)
		m->fd = fd;
	else if (fd >= 0)
		close(fd);
	plan_sort(p);
}

/* Names to protect, found before any is added to the plan. */
struct cands {
	struct strv path;
	int *fd;
};

static void cand_add(struct cands *c, const char *path, int fd)
{
	c->fd = xreallocarray(c->fd, c->path.n + 1, sizeof(*c->fd));
	c->fd[c->path.n] = fd;
	strv_push(&c->path, path);
}

/* A protected name that is a symbolic link cannot be made a mount point
 * (a mount lands on the link's target), so the link itself stays
 * replaceable, as an absent name is creatable. Refusing to run would
 * let one hostile run ("ln -s /etc/hostname .profile") stop every later
 * one: the target is kept read-only instead, and the start record says
 * so. */
static void linked_name(struct plan *p, const char *path, struct cands *c)
{
	char *target = path_resolve(path);

	plan_mask(p, path, xstrdup("a link: its target is read-only, the link "
	    "replaceable"));
	if (target != NULL && plan_view(p, p->n, target) == WRITABLE)
		cand_add(c, target, -1);
	free(target);
}

/* The existing protected names at the top of writable mount I, each
 * opened once: the object checked is the object bound. */
static void protected_in(struct plan *p, size_t i, struct cands *c)
{
	struct stat st;
	char *path;
	int fd;

	for (size_t j = 0;
	    j < sizeof(protected_names) / sizeof(*protected_names); j++) {
		path = xasprintf("%s/%s", strcmp(p->m[i].path, "/") ?
		    p->m[i].path : "", protected_names[j]);
		fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
			close(fd);
			linked_name(p, path, c);
		} else if (fd >= 0) {
			cand_add(c, path, fd);
		}
		free(path);
	}
}

/* Protected names stay read-only, and so does anything below them,
 * whatever the policy says. */
void plan_protect(struct plan *p)
{
	struct cands c = { 0 };
	size_t i, j;

	for (i = 0; i < p->n; i++)
		if (p->m[i].kind == FS_ALLOW_WRITE)
			protected_in(p, i, &c);
	for (i = 0; i < c.path.n; i++)
		protect(p, c.path.v[i], c.fd[i]);
	for (i = 0; i < p->n; i++)
		for (j = 0; j < p->n; j++)
			if (p->m[j].protect && p->m[i].kind == FS_ALLOW_WRITE &&
			    path_within(p->m[i].path, p->m[j].path))
				p->m[i].kind = FS_DENY_WRITE;
	strv_free(&c.path);
	free(c.fd);
}