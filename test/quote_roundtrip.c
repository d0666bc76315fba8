/* quote_roundtrip.c: the proof, by running them, that quote.c's strings
 * round-trip through every binShell of DESIGN 2 and 3. For each shell,
 * random argument vectors (bytes 1..255, biased to shell metacharacters,
 * control bytes, invalid UTF-8 and empty strings) go through three forms:
 *   batched:    many "printf '%s\0' 'x' 'a1' ..." lines in one SHELL -c
 *   exec:       SHELL -c "exec 'printf' '%s\0' 'x' 'a1' ..." (the product;
 *               the first vector is fixed: every byte, runs of quotes)
 *   positional: SHELL -c 'exec "$0" "$@"' printf '%s\0' x a1 ... (the
 *               product's form past 128 KiB, some runs that large)
 * and the NUL-separated bytes on stdout must be the arguments exactly.
 * Usage: quote_roundtrip [N [SEED]] (N batched vectors per shell, 10000);
 * a missing shell fails unless QUOTE_ALLOW_MISSING=1. Output is TAP.
 * Build: gcc -std=c11 -D_GNU_SOURCE -Wall ... -I. -o /tmp/quote_roundtrip
 *        test/quote_roundtrip.c quote.c util.c */
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "quote.h"

#define MAX_ARGS 8
#define MAX_ARG_BYTES 40
#define ARG_STRLEN_MAX (32 * 4096 - 1)	/* as in sandbox.c */
#define BATCH_VECTORS 200
#define BATCH_BYTES (96 * 1024)	/* one -c string stays under 128 KiB */
#define EXEC_RUNS 300
#define POSITIONAL_RUNS 200
#define BIG_EVERY 50	/* every 50th positional run passes 128 KiB */
#define BIG_ARG_BYTES 20000
#define HEX_MAX 512	/* bytes of one string shown in a diagnostic */
#define STR(x) XSTR(x)
#define XSTR(x) #x

static const char *const shells[] = { "/bin/sh", "/bin/bash", "/bin/dash",
	"/usr/bin/zsh", "/usr/bin/ksh" };
#define NSHELLS (sizeof(shells) / sizeof(*shells))
#define NFORMS 3

static char *const child_env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
static int testno, failures;

struct buf {
	char *p;
	size_t n, cap;
};

/* argv for quote_command: printf, its format, the fixed "x", the args. */
struct vec {
	char *argv[3 + MAX_ARGS + 1];
	size_t nargs;
};

static void *must(void *p)
{
	if (p == NULL) {
		printf("Bail out! out of memory\n");
		exit(2);
	}
	return p;
}

static void buf_add(struct buf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = must(realloc(b->p, b->cap));
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* splitmix64: small, and the same on every machine for one seed. */
static uint64_t rng_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static size_t rng_below(uint64_t *st, size_t n)
{
	return (size_t)(rng_next(st) % n);
}

/* One byte in ten is ', near half are other shell syntax, a tenth each
 * control bytes, 0x7f..0x9f (where dash and zsh keep internal markers)
 * and 0xa0..0xff (invalid UTF-8 as often as not), the rest anything. */
static char rand_byte(uint64_t *st)
{
	static const char special[] = "\\\"$`!\n *?~#%{} \t\r()|&;<>[]=^-";
	size_t r = rng_below(st, 20);

	if (r < 2)
		return '\'';
	if (r < 11)
		return special[rng_below(st, sizeof(special) - 1)];
	if (r < 13)
		return (char)(1 + rng_below(st, 31));
	if (r < 15)
		return (char)(0x7f + rng_below(st, 0x21));
	if (r < 17)
		return (char)(0xa0 + rng_below(st, 0x60));
	return (char)(1 + rng_below(st, 255));
}

/* LEN random bytes as a string. */
static char *rand_arg(uint64_t *st, size_t len)
{
	char *s = must(malloc(len + 1));

	for (size_t i = 0; i < len; i++)
		s[i] = rand_byte(st);
	s[len] = '\0';
	return s;
}

/* 0..8 arguments of 0..40 bytes, empty one time in five; or, when BIG,
 * 8 of BIG_ARG_BYTES, too long together for one -c string. */
static void vec_make(struct vec *v, uint64_t *st, int big)
{
	size_t len;

	v->nargs = big ? MAX_ARGS : rng_below(st, MAX_ARGS + 1);
	v->argv[0] = "printf";
	v->argv[1] = "%s\\0";
	v->argv[2] = "x";
	for (size_t i = 0; i < v->nargs; i++) {
		if (big)
			len = BIG_ARG_BYTES;
		else if (rng_below(st, 5) == 0)
			len = 0;
		else
			len = 1 + rng_below(st, MAX_ARG_BYTES);
		v->argv[3 + i] = rand_arg(st, len);
	}
	v->argv[3 + v->nargs] = NULL;
}

/* The first exec-form vector of every shell: every byte 1..255 in one
 * argument, then the quote runs that '\'' escaping must survive. */
static void vec_fixed(struct vec *v)
{
	static const char *const tricky[] = { "'", "''", "'\\''", "",
	    "\\'", "a'b'c", "'$(id)'`id`" };
	char *all = must(malloc(256));

	for (int c = 1; c < 256; c++)
		all[c - 1] = (char)c;
	all[255] = '\0';
	v->nargs = 1 + sizeof(tricky) / sizeof(*tricky);
	v->argv[0] = "printf";
	v->argv[1] = "%s\\0";
	v->argv[2] = "x";
	v->argv[3] = all;
	for (size_t i = 1; i < v->nargs; i++)
		v->argv[3 + i] = must(strdup(tricky[i - 1]));
	v->argv[3 + v->nargs] = NULL;
}

static void vec_free(struct vec *v)
{
	for (size_t i = 0; i < v->nargs; i++)
		free(v->argv[3 + i]);
}

/* What printf '%s\0' x a1 ... writes. */
static void vec_expect(const struct vec *v, struct buf *want)
{
	for (size_t i = 2; v->argv[i] != NULL; i++)
		buf_add(want, v->argv[i], strlen(v->argv[i]) + 1);
}

/* N bytes of S as hex, the first HEX_MAX of them. */
static void hex(FILE *f, const char *label, const char *s, size_t n)
{
	size_t m = n < HEX_MAX ? n : HEX_MAX;

	fprintf(f, "#   %s (%zu bytes%s):", label, n,
	    m < n ? ", the first " STR(HEX_MAX) : "");
	for (size_t i = 0; i < m; i++)
		fprintf(f, "%s%02x", i % 32 == 0 && i ? "\n#     " : " ",
		    (unsigned char)s[i]);
	fputc('\n', f);
}

static void vec_dump(FILE *f, const struct vec *v)
{
	char label[32];

	fprintf(f, "#   failing vector, %zu args after the fixed \"x\":\n",
	    v->nargs);
	for (size_t i = 0; i < v->nargs; i++) {
		snprintf(label, sizeof(label), "arg %zu", i + 1);
		hex(f, label, v->argv[3 + i], strlen(v->argv[3 + i]));
	}
}

/* Run ARGV with stdin from /dev/null and stdout into OUT; the wait status,
 * or -1 when it could not be started. stderr is left to ours. */
static int run_capture(char *const *argv, struct buf *out)
{
	posix_spawn_file_actions_t fa;
	char chunk[65536];
	int fd[2], status = -1;
	pid_t pid;
	ssize_t r;

	if (pipe2(fd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, child_env);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (r != 0) {
		close(fd[0]);
		return -1;
	}
	while ((r = read(fd[0], chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)r);
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return status;
}

/* 0 when a run exited 0 and wrote WANT exactly; else V, the status and
 * both outputs go to DIAG. */
static int check_run(FILE *diag, const struct vec *v, int status,
    const struct buf *got, const struct buf *want)
{
	if (status == 0 && got->n == want->n &&
	    (got->n == 0 || memcmp(got->p, want->p, got->n) == 0))
		return 0;
	vec_dump(diag, v);
	if (status == -1)
		fprintf(diag, "#   the shell could not be started\n");
	else if (WIFEXITED(status))
		fprintf(diag, "#   exit status %d\n", WEXITSTATUS(status));
	else
		fprintf(diag, "#   killed by signal %d\n", WTERMSIG(status));
	hex(diag, "got ", got->p, got->n);
	hex(diag, "want", want->p, want->n);
	return -1;
}

/* One shell run of ARGV for vector V, its output checked against V. */
static int run_one(char *const *argv, const struct vec *v, FILE *diag)
{
	struct buf got = { 0 }, want = { 0 };
	int status = run_capture(argv, &got), rc;

	vec_expect(v, &want);
	rc = check_run(diag, v, status, &got, &want);
	free(got.p);
	free(want.p);
	return rc;
}

/* Vectors of one batched shell run, its script and expected output. */
struct batch {
	struct vec v[BATCH_VECTORS];
	size_t k;
	struct buf cmd, want;
};

/* Append to CMD "printf '%s\0' 'x' ...\nprintf '%s\0' '--SEP--'\n", one
 * command a line so that a shell stops at the line that fails. */
static void script_add(struct buf *cmd, struct buf *want,
    const struct vec *v)
{
	char *line = quote_command(v->argv, ARG_STRLEN_MAX);

	buf_adds(cmd, line + strlen("exec "));
	buf_adds(cmd, "\nprintf '%s\\0' '--SEP--'\n");
	vec_expect(v, want);
	buf_add(want, "--SEP--", sizeof("--SEP--"));
	free(line);
}

/* The batch failed: run its vectors one by one in the same form and
 * blame the first that fails alone, else say that none does. */
static size_t batch_blame(const char *shell, struct batch *b, FILE *diag)
{
	struct buf cmd = { 0 }, want = { 0 }, got = { 0 };
	char *argv[] = { (char *)shell, "-c", NULL, NULL };
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < b->k; i++) {
		cmd.n = want.n = got.n = 0;
		script_add(&cmd, &want, &b->v[i]);
		argv[2] = cmd.p;
		rc = check_run(diag, &b->v[i], run_capture(argv, &got), &got,
		    &want);
	}
	if (rc == 0)
		fprintf(diag, "#   the batch of %zu failed, but each of its "
		    "vectors round-trips alone\n", b->k);
	free(cmd.p);
	free(want.p);
	free(got.p);
	return rc == 0 ? 0 : i - 1;
}

/* Run the batch in SHELL: -1 when all of it round-trips, else the index
 * of the vector to blame. */
static long batch_run(const char *shell, struct batch *b, FILE *diag)
{
	char *argv[] = { (char *)shell, "-c", b->cmd.p, NULL };
	struct buf got = { 0 };
	int status = run_capture(argv, &got);
	int same = status == 0 && got.n == b->want.n &&
	    (got.n == 0 || memcmp(got.p, b->want.p, got.n) == 0);

	free(got.p);
	return same ? -1 : (long)batch_blame(shell, b, diag);
}

static void batch_clear(struct batch *b)
{
	for (size_t i = 0; i < b->k; i++)
		vec_free(&b->v[i]);
	b->k = 0;
	b->cmd.n = b->want.n = 0;
}

/* N vectors, BATCH_VECTORS (or BATCH_BYTES of script) per shell run.
 * The number of vectors that passed, or -1 - (index of the failure). */
static long form_batched(const char *shell, uint64_t *st, size_t n,
    size_t *runs, FILE *diag)
{
	static struct batch b;
	size_t done = 0;
	long bad;

	while (done < n) {
		while (b.k < BATCH_VECTORS && b.cmd.n < BATCH_BYTES &&
		    done + b.k < n) {
			vec_make(&b.v[b.k], st, 0);
			script_add(&b.cmd, &b.want, &b.v[b.k++]);
		}
		bad = batch_run(shell, &b, diag);
		++*runs;
		if (bad >= 0) {
			batch_clear(&b);
			return -1 - (long)(done + (size_t)bad);
		}
		done += b.k;
		batch_clear(&b);
	}
	return (long)done;
}

/* The product's form: SHELL -c "exec 'printf' '%s\0' 'x' ...". */
static long form_exec(const char *shell, uint64_t *st, size_t n,
    size_t *runs, FILE *diag)
{
	struct vec v;
	char *line;
	int rc;

	for (size_t i = 0; i < n; i++) {
		if (i == 0)
			vec_fixed(&v);
		else
			vec_make(&v, st, 0);
		line = quote_command(v.argv, ARG_STRLEN_MAX);
		char *argv[] = { (char *)shell, "-c", line, NULL };
		rc = run_one(argv, &v, diag);
		++*runs;
		free(line);
		vec_free(&v);
		if (rc < 0)
			return -1 - (long)i;
	}
	return (long)n;
}

/* The product's form past ARG_STRLEN_MAX: SHELL -c 'exec "$0" "$@"'
 * printf '%s\0' x ...; every BIG_EVERY-th vector is past it, and
 * quote_command must refuse that one, or sandbox.c would not get here. */
static long form_positional(const char *shell, uint64_t *st, size_t n,
    size_t *big, FILE *diag)
{
	char *argv[3 + 3 + MAX_ARGS + 1] = { (char *)shell, "-c",
	    "exec \"$0\" \"$@\"" };
	struct vec v;
	char *line;
	int rc;

	for (size_t i = 0; i < n; i++) {
		vec_make(&v, st, i % BIG_EVERY == 0);
		memcpy(argv + 3, v.argv, sizeof(v.argv));
		line = quote_command(v.argv, ARG_STRLEN_MAX);
		rc = (i % BIG_EVERY == 0) != (line == NULL) ? -1 : 0;
		if (rc < 0 && line != NULL)
			fprintf(diag, "#   quote_command gave %zu bytes, want "
			    "NULL past %d\n", strlen(line), ARG_STRLEN_MAX);
		else if (rc < 0)
			fprintf(diag, "#   quote_command gave NULL for a "
			    "small vector\n");
		*big += line == NULL;
		free(line);
		if (rc == 0)
			rc = run_one(argv, &v, diag);
		vec_free(&v);
		if (rc < 0)
			return -1 - (long)i;
	}
	return (long)n;
}

/* One TAP line; DIAG's text, if any, after it. */
static void tap(int pass, const char *desc, FILE *diag, char **text)
{
	testno++;
	printf("%s %d - %s\n", pass ? "ok" : "not ok", testno, desc);
	fflush(diag);
	fwrite(*text, 1, (size_t)ftell(diag), stdout);
	fflush(stdout);
	rewind(diag);
	failures += !pass;
}

static void missing(const char *shell, FILE *diag, char **text)
{
	int allow = getenv("QUOTE_ALLOW_MISSING") != NULL &&
	    strcmp(getenv("QUOTE_ALLOW_MISSING"), "1") == 0;
	char desc[160];

	for (int f = 0; f < NFORMS; f++) {
		snprintf(desc, sizeof(desc), allow ? "%s: not installed # SKIP "
		    "QUOTE_ALLOW_MISSING=1" : "%s: not installed (a binShell "
		    "of DESIGN 2; QUOTE_ALLOW_MISSING=1 skips it)", shell);
		tap(allow, desc, diag, text);
	}
}

/* A stream of its own for each shell and form, so one seed reproduces
 * any failure whatever the other shells did. */
static uint64_t stream(uint64_t seed, size_t shell, int form)
{
	uint64_t st = seed ^ (0x632be59bd9b4e019u * (shell * NFORMS +
	    (size_t)form + 1));

	return rng_next(&st);
}

static void describe(char *desc, size_t cap, const char *shell,
    const char *form, long r, size_t n, const char *extra)
{
	if (r >= 0)
		snprintf(desc, cap, "%s: %ld vectors round-trip (%s%s)", shell,
		    r, form, extra);
	else
		snprintf(desc, cap, "%s: vector %ld of %zu does not round-trip "
		    "(%s); the rest of this form skipped", shell, -r, n, form);
}

static void test_shell(size_t i, uint64_t seed, size_t n, FILE *diag,
    char **text)
{
	const char *shell = shells[i];
	char desc[256], extra[96];
	size_t runs = 0, big = 0;
	uint64_t st;
	long r;

	if (access(shell, X_OK) != 0) {
		missing(shell, diag, text);
		return;
	}
	st = stream(seed, i, 0);
	r = form_batched(shell, &st, n, &runs, diag);
	snprintf(extra, sizeof(extra), ", %zu shell runs", runs);
	describe(desc, sizeof(desc), shell, "batched", r, n, extra);
	tap(r >= 0, desc, diag, text);
	st = stream(seed, i, 1);
	r = form_exec(shell, &st, EXEC_RUNS, &runs, diag);
	describe(desc, sizeof(desc), shell, "exec form, one shell each", r,
	    EXEC_RUNS, "");
	tap(r >= 0, desc, diag, text);
	st = stream(seed, i, 2);
	r = form_positional(shell, &st, POSITIONAL_RUNS, &big, diag);
	snprintf(extra, sizeof(extra), ", %zu of them past %d bytes quoted",
	    big, ARG_STRLEN_MAX);
	describe(desc, sizeof(desc), shell, "positional \"$0\" \"$@\" form",
	    r, POSITIONAL_RUNS, extra);
	tap(r >= 0, desc, diag, text);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) :
	    (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	char *text = NULL;
	size_t textlen = 0;
	FILE *diag = open_memstream(&text, &textlen);

	if (diag == NULL || n == 0) {
		printf("Bail out! usage: quote_roundtrip [N [SEED]], N > 0\n");
		return 2;
	}
	printf("1..%zu\n", NSHELLS * NFORMS);
	printf("# seed %llu: rerun with quote_roundtrip %zu %llu\n",
	    (unsigned long long)seed, n, (unsigned long long)seed);
	fflush(stdout);
	for (size_t i = 0; i < NSHELLS; i++)
		test_shell(i, seed, n, diag, &text);
	fclose(diag);
	free(text);
	return failures ? 1 : 0;
}
