/* util.h: error helpers and bounded allocation shared by every sbexec file. */
#ifndef SBEXEC_UTIL_H
#define SBEXEC_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* Exit statuses of DESIGN section 7. */
enum {
	EXIT_TIMEOUT = 124,
	EXIT_SBEXEC = 125,
	EXIT_DENIED = 126,
	EXIT_NOTFOUND = 127
};

/* Print "sbexec: MESSAGE" (with ": strerror(errno)" for die) and exit. */
_Noreturn void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void diex(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Give the lines of die, diex and warnx, each whole with its newline,
 * to SINK instead of stderr (say.c, while a run is supervised); NULL
 * gives them back to stderr. */
void util_msg_sink(int (*sink)(const char *line, size_t len));

void *xmalloc(size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

/* The top of the stack for a child that borrows its parent's memory
 * until it execs or exits (CLONE_VM|CLONE_VFORK): the parent waits
 * meanwhile, so one stack serves every such child of a process. */
void *vfork_stack(void);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array of strings, NULL-terminated at every step. */
struct strv {
	char **v;
	size_t n, cap;
};
void strv_push(struct strv *sv, const char *s);
void strv_pushn(struct strv *sv, const char *const *items, size_t n);
/* A, then B and C unless NULL: an option and its arguments. */
void strv_add(struct strv *sv, const char *a, const char *b, const char *c);
void strv_free(struct strv *sv);

const char *base_name(const char *path);

/* 1 when descriptor FD and PATH are the same inode (a namespace). */
int same_inode(int fd, const char *path);

/* Milliseconds of CLOCK_MONOTONIC: deadlines and durations. */
long long now_ms(void);

/* The next unsigned decimal number of F into *V, after any blanks:
 * 1, or 0 at the end or at anything else (a /proc list of numbers
 * without the scanf family, which the binary would carry for this). */
int read_number(FILE *f, unsigned long long *v);

/* The decimal number at S, after blanks, with an optional '-' (a number
 * in a kernel file, a descriptor in argv): *END (if END) past its
 * digits, or S when there are none; past the range it stays at its end,
 * as strtoll does. */
long long dec_number(const char *s, char **end);

/* close_range(2)'s flag (linux/close_range.h, Linux 5.11), which musl's
 * headers do not carry. */
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* ASan cannot follow a clone onto another stack (false reports, a
 * warning on stderr): the sanitizer build forks where sbexec clones. */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORK_ONLY 1
#endif
#endif
#ifndef FORK_ONLY
#define FORK_ONLY 0
#endif

#endif
