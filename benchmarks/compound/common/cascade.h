/* The cascade of the RAG systems (header only, plain C, with its knobs'
 * annotations): their `answer` function (QA model selection,
 * int answer(const char *prompt, char *out, int cap, int state)) carries a
 * safety_contract annotation with checker=answer_ok recover=answer_escalate,
 * so an answer by a cheaper model is checked and, when rejected, answered
 * again by the exact model (try-check-recover: AutoMix and FrugalGPT inside
 * the compiler's own construct). The checker's rule is tuned through two
 * knobs:
 *  - accept_probability: the first-token probability a cheaper answer needs:
 *    0 (every answer accepted: plain model selection), 0.2 to 0.6 by 0.1
 *    (where checkers.py found the cascade's useful range: from 0.7 on it
 *    escalates more than half the answers of both cheap models tried);
 *  - accept_in_passages: whether it must also occur in the prompt's passages.
 * benchmarks/compound/checkers.py measures which signal tells right answers
 * from wrong ones. */
#ifndef APPROX_CASCADE_H
#define APPROX_CASCADE_H

#include "rag.h"

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1, 2, 3, 4, 5]
double accept_probability(void) { return 0; }
double approx_accept_probability_1(void) { return 0.2; }
double approx_accept_probability_2(void) { return 0.3; }
double approx_accept_probability_3(void) { return 0.4; }
double approx_accept_probability_4(void) { return 0.5; }
double approx_accept_probability_5(void) { return 0.6; }

// @approx:static_transform transform_type=func_substitute knob_val=0 decision_values=[0, 1]
int accept_in_passages(void) { return 0; }
int approx_accept_in_passages_1(void) { return 1; }

/* The checker: the answer by model m (answer's result) is accepted by
 * rag_accept's rule with the knobs' values. */
bool answer_ok(int m, const char *prompt, char *out, int cap, int state) {
  (void)prompt, (void)out, (void)cap, (void)state;
  return rag_accept(m, accept_probability(), accept_in_passages());
}

/* The recovery: the exact model answers. */
int answer_escalate(const char *prompt, char *out, int cap, int state) {
  (void)state;
  return rag_escalate(prompt, RAG_PREFIX_BYTES, out, cap);
}

#endif
