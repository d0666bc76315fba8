/* devices.c: the policy's "devices", resolved and checked. A device is a
 * door into a kernel driver: a GPU's is one of the largest pieces of
 * code in the kernel, reached by ioctls no seccomp filter can tell
 * apart. So nothing is admitted by default, a path must be a character
 * device at its own path (a link could be pointed elsewhere), and the
 * two named sets take only what their driver made:
 *	dri	the render nodes /dev/dri/renderD* (DRM, major 226): VAAPI,
 *		QSV, Vulkan. Card nodes (modesetting, the display) only
 *		when named by path, as flatpak's --device=dri is wider.
 *	nvidia	/dev/nvidiactl, /dev/nvidia[0-9]*, /dev/nvidia-modeset
 *		(major 195), /dev/nvidia-uvm and -uvm-tools (the major
 *		/proc/devices names nvidia-uvm): NVENC, NVDEC, CUDA. The
 *		NVIDIA container toolkit's list, without nvidia-caps (MIG).
 * Each node is opened once, O_PATH|O_NOFOLLOW, component by component,
 * and checked on the descriptor, which both backends then use: bwrap
 * binds the descriptor, Landlock's rule holds it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "path.h"
#include "policy/devices.h"
#include "tiny.h"
#include "util.h"

#define DRM_MAJOR 226		/* include/drm/drm_device.h: fixed */
#define NVIDIA_MAJOR 195	/* NV_MAJOR_DEVICE_NUMBER: fixed */

static const char *const nvidia_names[] = {
	"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
	"/dev/nvidia-modeset",
};

int devices_is_set(const char *name)
{
	return strcmp(name, "dri") == 0 || strcmp(name, "nvidia") == 0;
}

/* NAME is PREFIX and one or more digits. */
static int numbered(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);

	if (strncmp(name, prefix, len) != 0 || name[len] == '\0')
		return 0;
	return strspn(name + len, "0123456789") == strlen(name + len);
}

/* DIR/PREFIX<digits>, each entry of DIR that is one. */
static void numbered_in(const char *dir, const char *prefix,
    struct strv *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *path;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (numbered(e->d_name, prefix)) {
			path = xasprintf("%s/%s", dir, e->d_name);
			strv_push(out, path);
			free(path);
		}
	if (d != NULL)
		closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void devices_members(const char *name, struct strv *out)
{
	struct stat st;
	size_t first = out->n;

	if (strcmp(name, "dri") == 0) {
		numbered_in("/dev/dri", "renderD", out);
	} else {
		numbered_in("/dev", "nvidia", out);
		for (size_t i = 0; i < sizeof(nvidia_names) /
		    sizeof(*nvidia_names); i++)
			if (lstat(nvidia_names[i], &st) == 0)
				strv_push(out, nvidia_names[i]);
	}
	tiny_sort(out->v + first, out->n - first, sizeof(*out->v), by_name);
}

int devices_check(const char *path, char **why)
{
	char *real = path_resolve(path);
	struct stat st;
	int rc = -1;

	if (real == NULL)
		*why = xasprintf("%s: %s", path, strerror(errno));
	else if (strcmp(real, path) != 0)
		*why = xasprintf("%s: a symbolic link (or one on the way) to "
		    "%s; name the node itself", path, real);
	else if (lstat(path, &st) < 0 || !S_ISCHR(st.st_mode))
		*why = xasprintf("%s: not a character device", path);
	else
		rc = 0;
	free(real);
	return rc;
}

/* The major /proc/devices gives the character driver NAME, or -1. */
static long proc_major(const char *name)
{
	FILE *f = fopen("/proc/devices", "re");
	char line[128], *end;
	long major = -1, n;

	while (f != NULL && major < 0 && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "Block", 5) == 0)
			break;
		line[strcspn(line, "\n")] = '\0';
		n = (long)dec_number(line, &end);
		if (end != line && *end == ' ' && strcmp(end + 1, name) == 0)
			major = n;
	}
	if (f != NULL)
		fclose(f);
	return major;
}

/* The major a member of SET must have; -1: any (a path of the policy). */
static long set_major(const char *set, const char *path)
{
	if (set == NULL)
		return -1;
	if (strcmp(set, "dri") == 0)
		return DRM_MAJOR;
	if (strncmp(path, "/dev/nvidia-uvm", 15) == 0)
		return proc_major("nvidia-uvm");
	return NVIDIA_MAJOR;
}

/* PATH opened one component at a time, never following a link. */
static int walk(const char *path)
{
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), fd, err;

	if (root < 0)
		return -1;
	fd = path_walk(root, path);
	err = errno;
	close(root);
	errno = err;
	return fd;
}

/* Open PATH (of SET, or named by the policy when NULL) into D. */
static int open_one(struct devices *d, const char *path, const char *set,
    char **why)
{
	long major = set_major(set, path);
	struct stat st;
	int fd, high = -1;

	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].path, path) == 0)
			return 0;
	fd = walk(path);
	if (fd < 0 || fstat(fd, &st) < 0)
		*why = xasprintf("devices: %s: %s", path, strerror(errno));
	else if (!S_ISCHR(st.st_mode))
		*why = xasprintf("devices: %s is not a character device (or "
		    "is reached through a symbolic link)", path);
	else if (major >= 0 && (long)major(st.st_rdev) != major)
		*why = xasprintf("devices: %s (of \"%s\") is device %u:%u, not "
		    "one of its driver's (major %ld)", path, set,
		    major(st.st_rdev), minor(st.st_rdev), major);
	else if ((high = fcntl(fd, F_DUPFD_CLOEXEC, 10)) < 0)
		*why = xasprintf("devices: %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (high < 0)
		return -1;
	d->v = xreallocarray(d->v, d->n + 1, sizeof(*d->v));
	d->v[d->n++] = (struct device){ xstrdup(path), high, st.st_dev,
	    st.st_rdev, st.st_ino };
	return 0;
}

int devices_open(const struct strv *entries, struct devices *d, char **why)
{
	struct strv members;
	int rc = 0;

	*d = (struct devices){ 0 };
	for (size_t i = 0; rc == 0 && i < entries->n; i++) {
		if (!devices_is_set(entries->v[i])) {
			rc = open_one(d, entries->v[i], NULL, why);
			continue;
		}
		members = (struct strv){ 0 };
		devices_members(entries->v[i], &members);
		for (size_t j = 0; rc == 0 && j < members.n; j++)
			rc = open_one(d, members.v[j], entries->v[i], why);
		strv_free(&members);
	}
	return rc;
}

void devices_free(struct devices *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].path);
		if (d->v[i].fd >= 0)
			close(d->v[i].fd);
	}
	free(d->v);
	*d = (struct devices){ 0 };
}
