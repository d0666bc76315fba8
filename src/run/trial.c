/* trial.c: "sandbox": "auto" at bwrap's own cost (DESIGN 9). The real
 * bwrap starts at once. Until it is set up (it has drained the first
 * buffer of the seccomp filter) nothing but bwrap can have written to
 * the command's output, and sbexec holds that output back. A bwrap that
 * exits before then, of itself and with an error, could not set up:
 * nothing ran, its words are dropped but for the first line, which is
 * the fallback's reason, and the Landlock backend runs instead. The
 * start record waits for the trial, so that it names the backend that
 * runs; a trial that ends any other way is a run of bwrap, shown and
 * recorded as one. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit/audit.h"
#include "run/sup.h"
#include "util.h"

#define LINE_MAX_SHOWN 512

void trial_init(struct sup *s)
{
	s->holding = s->run != NULL && s->run->begin != NULL;
}

/* The start record, once; audit.c says why when it cannot be. */
int trial_begin(struct sup *s)
{
	const struct run_start *b = s->run == NULL ? NULL : s->run->begin;

	if (b == NULL)
		return 0;
	s->run->begin = NULL;
	if (audit_start(b->pol, b->cmd, b->argv, &b->rec) == 0)
		return 0;
	s->audit_lost = 1;
	return -1;
}

/* Set up, or gone of itself with an error before it was: the command
 * has not run. Anything sbexec did (a refusal, the timeout, a signal it
 * forwarded, a record it lost) makes it a run. */
static int could_not_set_up(const struct sup *s)
{
	return WIFEXITED(s->wstatus) && WEXITSTATUS(s->wstatus) != 0 &&
	    s->exit_code < 0 && s->refused == NULL && !s->timed_out &&
	    s->kill_at == 0 && s->pending == 0 && !s->audit_lost &&
	    s->limit == NULL;
}

void trial_settle(struct sup *s)
{
	if (!s->holding)
		return;
	if (s->released) {
		s->holding = 0;
	} else if (s->reaped && s->status_fd < 0) {
		s->fall = could_not_set_up(s);
		s->holding = s->fall;	/* a run: what bwrap said is shown */
	}
}

/* The first line bwrap wrote to a held stream ("\r\n" on a pty). */
static char *first_line(struct sup *s)
{
	struct stream *held[] = { &s->err, &s->out, &s->term };
	char buf[LINE_MAX_SHOWN] = "";
	ssize_t n;

	for (size_t i = 0; i < sizeof(held) / sizeof(*held); i++) {
		if (held[i]->src < 0)
			continue;
		if (*buf == '\0' && (n = read(held[i]->src, buf,
		    sizeof(buf) - 1)) > 0)
			buf[n] = '\0';
		close(held[i]->src);
		held[i]->src = -1;
	}
	buf[strcspn(buf, "\r\n")] = '\0';
	return xstrdup(buf);
}

void trial_end(struct sup *s)
{
	if (s->fall)
		s->run->fallback = first_line(s);
	else
		trial_begin(s);	/* its failure is said, and ends the run */
}
