/* number.c: the number reader cJSON calls (it is built with
 * -Dstrtod=policy_strtod). Every number the policy takes is an integer
 * of at most 2^53 (schema.c), which this reads exactly; a fraction or
 * an exponent only has to stay what it is, a non-integer or a number
 * out of range, and does to within a unit in the last place. libc's
 * strtod rounds every decimal correctly, for 6 KiB of code that no
 * policy value needs (issue 32).
 *
 * The grammar is JSON's (RFC 8259, 6), stricter than strtod: no "+",
 * no leading zero, no "1." or ".5", no hexadecimal, inf or nan. What it
 * does not take ends the number, and cJSON then refuses what follows. */
#include <stdint.h>

#include "policy/number.h"

/* Significant digits kept: 19 fit in 64 bits; the rest only scale. */
#define DIGITS_MAX 19
/* An exponent past this is inf or 0 whatever the digits. */
#define EXP_MAX 400

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Scale M by 10^E. Up to 10^22 a power of ten is exact in a double, so
 * an exact M divided by it is rounded once. */
static double scale(double m, int e)
{
	double p = 1;

	for (; e > 22; e--)
		m *= 10;
	for (; e < -22; e++)
		m /= 10;
	for (int i = e < 0 ? -e : e; i > 0; i--)
		p *= 10;
	return e < 0 ? m / p : m * p;
}

static int exponent(const char **p)
{
	const char *q = *p + 1;
	int sign = 1, e = 0;

	if (*q == '+' || *q == '-')
		sign = *q++ == '-' ? -1 : 1;
	if (!digit(*q))
		return 0;		/* "1e" is 1 followed by "e" */
	for (; digit(*q); q++)
		if (e < EXP_MAX)
			e = e * 10 + (*q - '0');
	*p = q;
	return sign * e;
}

/* One more digit D of the number: kept while it fits, else only a
 * power of ten (an integer part's digit) or nothing (a fraction's). */
static void add(uint64_t *m, int *n, int *e, int d, int fraction)
{
	if (*n < DIGITS_MAX) {
		*m = *m * 10 + (uint64_t)d;
		*n += *m != 0;		/* leading zeros are not significant */
		*e -= fraction;
	} else {
		*e += !fraction;
	}
}

double policy_strtod(const char *s, char **end)
{
	const char *p = s + (*s == '-');
	uint64_t m = 0;
	int n = 0, e = 0;

	*end = (char *)s;
	if (!digit(*p))
		return 0;
	if (*p == '0')
		p++;			/* "01" is 0, then "1" */
	else
		for (; digit(*p); p++)
			add(&m, &n, &e, *p - '0', 0);
	if (*p == '.' && digit(p[1]))
		for (p++; digit(*p); p++)
			add(&m, &n, &e, *p - '0', 1);
	if (*p == 'e' || *p == 'E')
		e += exponent(&p);
	*end = (char *)p;
	return (*s == '-' ? -1 : 1) * scale((double)m, e);
}
