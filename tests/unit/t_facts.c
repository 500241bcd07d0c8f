/* SPDX-License-Identifier: BSD-2-Clause */
/* A result's platform is its measured end's: rate's DUT (env.dut, from its observer) before the
 * receiving agent (env.remote), before this host (env.local); a fact the measured end lacks stays
 * empty, never taken from another end. */
#include <stdio.h>
#include <string.h>

#include "core/store/facts.h"
#include "core/store/jdoc.h"
#include "tap.h"

#define LOCAL  "\"local\":{\"hostname\":\"pc\",\"kernel\":\"6.1-pc\",\"arch\":\"x86_64\"}"
#define REMOTE "\"remote\":{\"hostname\":\"sink\",\"kernel\":\"6.1-sink\",\"arch\":\"x86_64\"}"
#define DUT    "\"dut\":{\"hostname\":\"board\",\"kernel\":\"6.1-ppc\",\"arch\":\"ppc\"}"

static void facts(const char *env, struct nb_facts *f)
{
	char text[512], err[128];
	struct nb_jdoc *d = NULL;
	snprintf(text, sizeof(text), "{\"test\":\"rate\",\"env\":{%s}}", env);
	memset(f, 0, sizeof(*f));
	if (!nb_jdoc_parse(text, strlen(text), &d, err, sizeof(err)))
		nb_facts_measured(d, f);
	nb_jdoc_free(d);
}

int main(void)
{
	struct nb_facts f;
	facts(LOCAL "," REMOTE "," DUT, &f);
	CHECK(!strcmp(f.host, "board") && !strcmp(f.kernel, "6.1-ppc") && !strcmp(f.arch, "ppc"),
	      "rate through a DUT: the DUT's platform (%s %s %s)", f.host, f.kernel, f.arch);
	facts(LOCAL ",\"remote\":null," DUT, &f);
	CHECK(!strcmp(f.host, "board"), "the DUT's also with a local receiver (%s)", f.host);
	facts(LOCAL "," REMOTE, &f);
	CHECK(!strcmp(f.host, "sink") && !strcmp(f.kernel, "6.1-sink"),
	      "no DUT: the agent's platform (%s)", f.host);
	facts(LOCAL ",\"remote\":null", &f);
	CHECK(!strcmp(f.host, "pc"), "no DUT, no agent: this host's (%s)", f.host);
	facts(LOCAL "," REMOTE ",\"dut\":{\"hostname\":\"board\"}", &f);
	CHECK(!strcmp(f.host, "board") && !f.kernel[0] && !f.arch[0],
	      "a fact the DUT did not report stays empty, never the agent's (kernel '%s')",
	      f.kernel);
	return tap_done();
}
