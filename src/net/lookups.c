/* lookups.c: a request's host and every denied name that covers its
 * port are looked up at once, not one after another, and each answer is
 * kept for LOOKUP_KEEP_MS within the run: a deny list of N names costs
 * one lookup's latency, once (every plain-http HLS segment asked the
 * same names again). dns.c says nothing of a record's TTL, so
 * the time is sbexec's own, short of most TTLs; a lookup that failed
 * for another reason than the name not being there is kept
 * LOOKUP_RETRY_MS only. Keeping an answer moves no connection: every
 * address is checked again for each request (proxy.c).
 *
 * At most LOOKUP_THREADS lookups run at once; the others wait in the
 * table, started as answers come in. A lookup past its request's
 * timeout still holds its thread until the resolver gives up, so the
 * threads stay bounded whatever the command asks. */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "net/dns.h"
#include "net/lookups.h"
#include "util.h"

enum lstate { L_FREE, L_QUEUED, L_RUNNING, L_DONE };

struct entry {
	enum lstate st;
	long long until;	/* L_DONE: kept until then */
	long long used;		/* last asked: the oldest goes first */
	struct name_answer a;
};

struct lookups {
	int wfd, running;
	struct entry *e[LOOKUP_NAMES];
};

struct lookups *lookups_new(int wfd)
{
	struct lookups *l = xmalloc(sizeof(*l));

	*l = (struct lookups){ .wfd = wfd };
	return l;
}

void lookups_free(struct lookups *l)
{
	for (int i = 0; l != NULL && i < LOOKUP_NAMES; i++)
		free(l->e[i]);
	free(l);
}

static struct entry *find(struct lookups *l, const char *name)
{
	for (int i = 0; i < LOOKUP_NAMES; i++)
		if (l->e[i] != NULL && l->e[i]->st != L_FREE &&
		    strcmp(l->e[i]->a.name, name) == 0)
			return l->e[i];
	return NULL;
}

/* Room for a name: a free entry, else the one asked longest ago among
 * those answered. NULL when every entry waits on a lookup. */
static struct entry *room(struct lookups *l)
{
	struct entry *old = NULL;

	for (int i = 0; i < LOOKUP_NAMES; i++) {
		if (l->e[i] == NULL) {
			l->e[i] = xmalloc(sizeof(*l->e[i]));
			l->e[i]->st = L_FREE;
		} else if (l->e[i]->st != L_FREE && l->e[i]->st != L_DONE)
			continue;
		else if (l->e[i]->st == L_DONE) {
			if (old == NULL || l->e[i]->used < old->used)
				old = l->e[i];
			continue;
		}
		return l->e[i];
	}
	return old;
}

static void start_queued(struct lookups *l)
{
	for (int i = 0; i < LOOKUP_NAMES && l->running < LOOKUP_THREADS; i++)
		if (l->e[i] != NULL && l->e[i]->st == L_QUEUED) {
			if (resolve_start(l->e[i]->a.name, l->wfd) < 0)
				return;		/* on the next answer */
			l->e[i]->st = L_RUNNING;
			l->running++;
		}
}

/* NAME's entry, answered and fresh, or NULL (its lookup then going on:
 * *WAIT set) and *FAILED when it can be neither. */
static const struct entry *get(struct lookups *l, const char *name,
    long long now, int *wait, int *failed)
{
	struct entry *e = find(l, name);

	if (e != NULL && e->st == L_DONE && now < e->until) {
		e->used = now;
		return e;
	}
	*wait = 1;
	if (e == NULL && (e = room(l)) == NULL) {
		*failed = 1;
		return NULL;
	}
	if (e->st == L_FREE || e->st == L_DONE) {
		memset(&e->a, 0, sizeof(e->a));
		fmt_snprintf(e->a.name, sizeof(e->a.name), "%s", name);
		e->st = L_QUEUED;
	}
	e->used = now;
	start_queued(l);
	return NULL;
}

static int same(const struct addr *x, const struct addr *y)
{
	return x->family == y->family && memcmp(x->a, y->a,
	    x->family == AF_INET ? 4 : 16) == 0;
}

/* Does the denied name's answer D share an address with H? A name that
 * is not there has none; a lookup that failed otherwise is an answer
 * nobody can check (deny_err). */
static int shares(const struct name_answer *d, const struct name_answer *h,
    struct answer *a)
{
	if (d->err == DNS_NONAME || d->err == DNS_NODATA)
		return 0;
	if (d->err != 0) {
		a->deny_err = d->err;
		return 1;
	}
	for (int i = 0; i < d->n; i++)
		for (int k = 0; k < h->n; k++)
			if (same(&d->addr[i], &h->addr[k]))
				return 1;
	return 0;
}

static void fill(struct answer *a, const struct name_answer *h)
{
	*a = (struct answer){ .err = h->err, .more = h->more, .n = h->n };
	for (int i = 0; i < h->n; i++) {
		struct sockaddr_storage *ss = &a->addr[i];

		ss->ss_family = h->addr[i].family;
		if (h->addr[i].family == AF_INET)
			memcpy(&((struct sockaddr_in *)(void *)ss)->sin_addr,
			    h->addr[i].a, 4);
		else
			memcpy(&((struct sockaddr_in6 *)(void *)ss)->sin6_addr,
			    h->addr[i].a, 16);
	}
}

int lookups_ask(struct lookups *l, const char *host, const char *const *deny,
    size_t ndeny, struct answer *a, long long now)
{
	const struct entry *h, *d[NET_DENY_MAX];
	int wait = 0, failed = 0;
	size_t n = ndeny;

	if (ndeny > NET_DENY_MAX)
		return -1;		/* the policy's bound: never */
	h = get(l, host, now, &wait, &failed);
	if (h != NULL && h->a.err != 0) {
		fill(a, &h->a);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		d[i] = get(l, deny[i], now, &wait, &failed);
	if (failed)
		return -1;
	if (wait)
		return 0;
	fill(a, &h->a);
	for (size_t i = 0; i < n; i++)
		if (shares(&d[i]->a, &h->a, a)) {
			fmt_snprintf(a->denied, sizeof(a->denied), "%s",
			    deny[i]);
			break;
		}
	return 1;
}

void lookups_take(struct lookups *l, const struct name_answer *a,
    long long now)
{
	struct entry *e = find(l, a->name);

	l->running--;
	if (e != NULL && e->st == L_RUNNING) {
		e->a = *a;
		e->st = L_DONE;
		e->until = now + (a->err == DNS_OK || a->err == DNS_NONAME ||
		    a->err == DNS_NODATA ? LOOKUP_KEEP_MS : LOOKUP_RETRY_MS);
	}
	start_queued(l);
}
