/* noexec.c: only the system's trees execute in the bwrap sandbox
 * (DESIGN 13, issue 30). argv alone makes ffmpeg write a shared object
 * (a data: URI) and load it (-af ladspa=file=, frei0r); the uploaded
 * media is one too. The kernel refuses mmap(PROT_EXEC), not only
 * execve, of a file whose mount is noexec, so every mount of the
 * sandbox is made noexec, and only /usr (with real /bin, /sbin, /lib*),
 * the binaries the run starts and the policy's execPaths are bound onto
 * themselves, executable.
 *
 * bwrap has no option for it. mntns.c's helper runs this in the
 * sandbox's user and mount namespaces, after bwrap has made every mount
 * and before the command starts. Adding a flag to a locked mount (one
 * copied from the host into a less privileged namespace) is allowed;
 * clearing one is not, and an old-API remount that leaves out a locked
 * flag fails: so mount_setattr(2) adds noexec to the whole tree
 * (AT_RECURSIVE), and each executable tree is a fresh clone
 * (open_tree(2), OPEN_TREE_CLONE) whose top mount alone is cleared
 * before it is moved onto its own path. Mounts below a tree (a host
 * mount under /usr, an allowWrite there) stay noexec. A tree on a host
 * filesystem mounted noexec keeps the flag, locked: the run stops. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "path.h"
#include "sandbox/noexec.h"

/* linux/mount.h, which musl's headers do not carry. */
#define MOUNT_ATTR_NOEXEC 0x00000008ULL
#define OPEN_TREE_CLONE 1U
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004U
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

struct mount_attr_ {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* The system's trees, where they are real directories. */
static const char *const system_trees[] = { "/usr", "/bin", "/sbin",
    "/lib", "/lib32", "/lib64", "/libx32" };

static int in_trees(const struct strv *t, size_t from, const char *path)
{
	for (size_t i = from; i < t->n; i++)
		if (path_within(path, t->v[i]))
			return 1;
	return 0;
}

/* PATH resolved, unless a tree of OUT holds it already. */
static void add_tree(struct strv *out, size_t from, const char *path)
{
	char *real = path != NULL ? path_resolve(path) : NULL;

	if (real != NULL && !in_trees(out, from, real))
		strv_push(out, real);
	free(real);
}

void noexec_trees(const struct policy *pol, const struct command *cmd,
    struct strv *out)
{
	size_t from = out->n, n;
	struct stat st;

	for (size_t i = 0; i < sizeof(system_trees) / sizeof(*system_trees);
	    i++)
		if (lstat(system_trees[i], &st) == 0 && S_ISDIR(st.st_mode))
			add_tree(out, from, system_trees[i]);
	/* Outer trees first, so that one inside another is left out. */
	n = out->n;
	for (size_t i = 0; i < pol->exec_paths.n; i++)
		add_tree(out, from, pol->exec_paths.v[i]);
	for (size_t i = n; i < out->n; i++)
		for (size_t j = n; j < out->n; j++)
			if (i != j && path_within(out->v[j], out->v[i])) {
				free(out->v[j]);
				out->v[j--] = out->v[--out->n];
			}
	add_tree(out, from, pol->bin_shell);
	add_tree(out, from, cmd->path);
}

static int set_attr(int fd, unsigned flags, uint64_t set, uint64_t clr)
{
	struct mount_attr_ a = { set, clr, 0, 0 };

	return (int)syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | flags,
	    &a, sizeof(a));
}

/* TREE, with the mounts below it, cloned, its top mount executable,
 * and moved onto TREE. */
static int exec_tree(const char *tree)
{
	int fd = (int)syscall(SYS_open_tree, AT_FDCWD, tree, OPEN_TREE_CLONE |
	    O_CLOEXEC | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW), rc;

	if (fd < 0)
		return -1;
	rc = set_attr(fd, 0, 0, MOUNT_ATTR_NOEXEC);
	if (rc == 0)
		rc = (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, tree,
		    MOVE_MOUNT_F_EMPTY_PATH);
	close(fd);
	return rc;
}

int noexec_apply(const struct strv *trees)
{
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), rc;

	if (root < 0)
		return -1;
	rc = set_attr(root, AT_RECURSIVE, MOUNT_ATTR_NOEXEC, 0);
	close(root);
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < trees->n; i++)
		if (exec_tree(trees->v[i]) < 0)
			return (int)i + 1;
	return 0;
}
