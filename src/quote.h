/* quote.h: POSIX single-quote escaping for the command string that
 * binShell runs inside the sandbox. */
#ifndef SBEXEC_QUOTE_H
#define SBEXEC_QUOTE_H

#include <stddef.h>

/* The length of S quoted: two quotes, and four bytes for each '. */
size_t quote_len(const char *s);

/* Write S quoted at OUT (quote_len(S) bytes, no NUL); return the end. */
char *quote_put(char *out, const char *s);

/* "exec 'a0' 'a1' ..." as a new string, or NULL when it would be longer
 * than MAX bytes (the caller then passes argv positionally). */
char *quote_command(char *const *argv, size_t max);

#endif
