/* mountplan.h: the plan's internals, shared by the files that make it:
 * mounts.c (rules, audit, rendering), protect.c (protected names) and
 * links.c (links in writable places, pinning). Not for other callers:
 * they see mounts.h. */
#ifndef SBEXEC_MOUNTPLAN_H
#define SBEXEC_MOUNTPLAN_H

#include "sandbox/mounts.h"

/* What the command sees at a path. */
enum view { HIDDEN, READ_ONLY, WRITABLE };

/* "filesystem.allowWrite" and the others, by kind. */
extern const char *const plan_key[];

/* Merge a rule into the plan; at an equal path the larger kind (deny)
 * wins. Takes ownership of WHY. */
struct mount *plan_add(struct plan *p, const char *path, enum fs_kind kind,
    char *why);

/* The view at PATH given the mounts before index END. */
enum view plan_view(const struct plan *p, size_t end, const char *path);

/* 1 when a mount lies at exactly PATH. */
int plan_has(const struct plan *p, const char *path);

/* Least specific first. */
void plan_sort(struct plan *p);

/* Record PATH, a link in a writable place, in masked, saying in WHY
 * (taken over) what became of it. */
void plan_mask(struct plan *p, const char *path, char *why);

/* protect.c: protected names stay read-only in every writable mount. */
void plan_protect(struct plan *p);

/* links.c: see there. */
void plan_pin(struct plan *p);
int plan_links(const struct policy *pol, const char *cwd, struct plan *p,
    unsigned char *skip);

#endif
