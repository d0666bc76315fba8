/* mtab.c: /proc/PID/mountinfo read into plain data, and which mounts a
 * path can reach. A mount stacked on another at the same mount point
 * covers it, with everything below it: bwrap's /dev tmpfs covers the
 * copy of the host's /dev that the bind of / brought, and the writable
 * copies of the host's mounts beneath. Those are in the table but no
 * path leads to them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "sandbox/mtab.h"
#include "util.h"

/* Is OPT one of the comma-separated per-mount OPTIONS? */
static int has_option(const char *options, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *o = options; o != NULL; o = strchr(o, ',')) {
		o += *o == ',';
		if (strncmp(o, opt, n) == 0 && (o[n] == ',' || o[n] == '\0'))
			return 1;
	}
	return 0;
}

/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - ... */
static int parse(char *line, struct mtab_entry *m)
{
	char *f[6], *save = NULL, *opt;

	for (int i = 0; i < 6; i++)
		if ((f[i] = strtok_r(i ? NULL : line, " \n", &save)) == NULL)
			return -1;
	m->unbindable = 0;
	while ((opt = strtok_r(NULL, " \n", &save)) != NULL &&
	    strcmp(opt, "-") != 0)
		m->unbindable |= strcmp(opt, "unbindable") == 0;
	m->id = (int)dec_number(f[0], NULL);
	m->parent = (int)dec_number(f[1], NULL);
	m->mp = xstrdup(f[4]);
	m->ro = strcmp(f[5], "ro") == 0 || strncmp(f[5], "ro,", 3) == 0;
	m->noexec = has_option(f[5], "noexec");
	return 0;
}

static const struct mtab_entry *by_id(const struct mtab *t, int id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].id == id)
			return &t->m[i];
	return NULL;
}

static int covered(const struct mtab *t, const struct mtab_entry *m)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->m[i].parent == m->id && strcmp(t->m[i].mp, m->mp) == 0)
			return 1;
	return 0;
}

/* Visible: it is not covered, and no mount on its way to the root is
 * covered below it. A cover is the child of what it covers, at the same
 * point: bwrap's /dev and /proc are, and what lies on them (its device
 * nodes, the policy's devices) is visible through them. The walk up is
 * bounded by the table's size (a loop of parents). */
static void mark_visible(struct mtab *t)
{
	const struct mtab_entry *up, *next;
	size_t steps;
	int hidden;

	for (size_t i = 0; i < t->n; i++) {
		up = &t->m[i];
		hidden = covered(t, up);
		for (steps = 0; !hidden && up != NULL && steps <= t->n;
		    steps++) {
			next = by_id(t, up->parent);
			hidden = next != NULL && strcmp(next->mp, up->mp) != 0 &&
			    covered(t, next);
			up = next;
		}
		t->m[i].visible = !hidden && up == NULL;
	}
}

int mtab_read(pid_t pid, struct mtab *t)
{
	char path[64], *line = NULL;
	struct mtab_entry m;
	size_t cap = 0, len = 0;
	FILE *f;

	*t = (struct mtab){ 0 };
	if (pid == 0)
		fmt_snprintf(path, sizeof(path), "/proc/self/mountinfo");
	else
		fmt_snprintf(path, sizeof(path), "/proc/%d/mountinfo",
		    (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	/* getline's buffer grows to the longest line: a mountinfo line
	 * is the kernel's, its paths each < PATH_MAX. */
	while (getline(&line, &len, f) > 0) {
		if (parse(line, &m) < 0)
			continue;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 32;
			t->m = xreallocarray(t->m, cap, sizeof(*t->m));
		}
		t->m[t->n++] = m;
	}
	free(line);
	fclose(f);
	mark_visible(t);
	return 0;
}

void mtab_free(struct mtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->m[i].mp);
	free(t->m);
	*t = (struct mtab){ 0 };
}
