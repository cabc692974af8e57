/*
 * Unit tests of the memory bound (budget.h): what is taken past the bound is
 * refused and remembered for the message, what is given back frees room, and
 * the share of each of n workers covers its copy of what the parent holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "budget.h"

#define MIB (UINT64_C(1) << 20)

static int reset(void **state)
{
    (void)state;
    memset(&pl_budget, 0, sizeof pl_budget);
    return 0;
}

static void take_and_give(void **state)
{
    (void)state;
    pl_budget.limit = 64 * MIB;
    assert_int_equal(pl_budget_take(40 * MIB), 0);
    assert_int_equal(pl_budget_take(24 * MIB), 0); /* exactly at the bound */
    assert_int_equal(pl_budget_take(1), -1);
    assert_int_equal(pl_budget.refused, 1);
    assert_int_equal(pl_budget.used, 64 * MIB); /* a refusal holds nothing */
    pl_budget_give(40 * MIB);
    assert_int_equal(pl_budget_take(UINT64_MAX), -1); /* no overflow past the bound */
    assert_int_equal(pl_budget_take(40 * MIB), 0);
    pl_budget_give(UINT64_MAX); /* never below 0 */
    assert_int_equal(pl_budget.used, 0);
    pl_budget.limit = 0; /* no bound */
    assert_int_equal(pl_budget_take(UINT64_MAX / 2), 0);
}

static void why_names_the_bound(void **state)
{
    (void)state;
    char buf[256];
    pl_budget.limit = 2048 * MIB;
    assert_int_equal(pl_budget_take(1024 * MIB), 0);
    assert_int_equal(pl_budget_take(1024 * MIB + 1), -1);
    pl_budget_why("a buffer", buf, sizeof buf);
    assert_string_equal(buf, "a buffer of 1.0 GiB: platter already holds 1 GiB for this script, "
                             "and --max-memory is 2 GiB");
    assert_int_equal(pl_budget.refused, 0); /* said once */
    pl_budget.worker = 1;
    assert_int_equal(pl_budget_take(1024 * MIB + 1), -1);
    pl_budget_why("values", buf, sizeof buf);
    assert_non_null(strstr(buf, "this worker's share of --max-memory is 2 GiB"));
}

static void shares(void **state)
{
    (void)state;
    uint64_t each;
    char msg[400];
    /* no bound: nothing to share */
    pl_budget.used = 100 * MIB;
    assert_int_equal(pl_budget_share(1024, 1, &each, msg, sizeof msg), 0);
    assert_int_equal(each, 0);

    /* 4 workers and the parent's tick: 1/5 of what is left each */
    pl_budget.limit = 1024 * MIB;
    pl_budget.used = 24 * MIB;
    assert_int_equal(pl_budget_share(4, 1, &each, msg, sizeof msg), 0);
    assert_int_equal(each, 200 * MIB);
    /* one at a time (a serial target): all that is left */
    assert_int_equal(pl_budget_share(1, 0, &each, msg, sizeof msg), 0);
    assert_int_equal(each, 1000 * MIB);

    /* each share must hold the worker's copy of the 24 MiB and 1 MiB of its own:
       (1024 - 24) / (n + 1) >= 25 holds up to n = 39 */
    assert_int_equal(pl_budget_share(39, 1, &each, msg, sizeof msg), 0);
    assert_int_equal(pl_budget_share(40, 1, &each, msg, sizeof msg), -1);
    assert_true(each < 25 * MIB);
    assert_non_null(strstr(msg, "40 workers at once would each start with a copy of the 24 MiB"));
    assert_non_null(strstr(msg, "--max-memory (1 GiB"));

    /* past the bound already (the result writer's room): nothing left to share */
    pl_budget.used = 2048 * MIB;
    assert_int_equal(pl_budget_share(1, 0, &each, msg, sizeof msg), -1);
    assert_int_equal(each, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(take_and_give, reset),
        cmocka_unit_test_setup(why_names_the_bound, reset),
        cmocka_unit_test_setup(shares, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
