/* pagecost: what one new page costs a process on this machine, as the
 * bench's yardstick for page faults. Part of the benchmark harness
 * (bench/run), not of sbexec.
 *
 *   pagecost
 *
 * 50 times: map 64 fresh anonymous pages and write one byte to each, then
 * write to them again. Prints the median microseconds per page of the
 * first writes (a fault and a new page each) and of the second (neither):
 *   first_us second_us */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#define ROUNDS 50
#define PAGES 64
#define PAGE 4096

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Microseconds per page to write one byte to each of P's pages. */
static double touch(volatile char *p)
{
	double t = now_us();

	for (int i = 0; i < PAGES; i++)
		p[i * PAGE]++;
	return (now_us() - t) / PAGES;
}

int main(void)
{
	double first[ROUNDS], second[ROUNDS];
	char *p;

	now_us();
	for (int r = 0; r < ROUNDS; r++) {
		p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("pagecost: mmap");
			return 2;
		}
		first[r] = touch(p);
		second[r] = touch(p);
		munmap(p, PAGES * PAGE);
	}
	qsort(first, ROUNDS, sizeof(*first), cmp);
	qsort(second, ROUNDS, sizeof(*second), cmp);
	printf("%.2f %.3f\n", first[ROUNDS / 2], second[ROUNDS / 2]);
	return 0;
}
