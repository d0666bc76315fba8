/* lookups.h: the proxy's name lookups within a run (DESIGN 11, issue
 * 31): answers kept, looked up concurrently on a bounded number of
 * threads. */
#ifndef SBEXEC_LOOKUPS_H
#define SBEXEC_LOOKUPS_H

#include "net/resolve.h"

#define LOOKUP_THREADS 16	/* lookups running at once */
#define LOOKUP_NAMES 256	/* names kept */
#define LOOKUP_KEEP_MS 30000	/* how long an answer is kept */
#define LOOKUP_RETRY_MS 2000	/* a lookup that failed otherwise */

struct lookups;

/* Lookups whose threads answer on WFD (the proxy reads its other end). */
struct lookups *lookups_new(int wfd);
void lookups_free(struct lookups *l);

/* HOST and the denied names DENY[NDENY] for one request: 1 with *A
 * filled when every answer needed is known, 0 while some lookup goes
 * on (those not yet started are started, or queued), -1 when a name
 * could be neither looked up nor queued. A failed lookup of HOST needs
 * no denied name. */
int lookups_ask(struct lookups *l, const char *host, const char *const *deny,
    size_t ndeny, struct answer *a, long long now);

/* One answer the proxy read: kept, and the queued lookups started as
 * threads free up. */
void lookups_take(struct lookups *l, const struct name_answer *a,
    long long now);

#endif
