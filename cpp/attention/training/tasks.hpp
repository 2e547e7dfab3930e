// Sequence tasks whose right attention map is known in advance, so a trained
// model can be checked by looking at its map: output position i must copy the
// input token at position source(i), and the best map puts row i's weight on
// column source(i).
//
//   reverse  target[i] = input[n - 1 - i]          the anti-diagonal
//   shift    target[i] = input[(i - 1) mod n]      the sub-diagonal, and row 0 on the last
//                                                  column (a cyclic shift by one)
//   date     YYYYMMDD -> DDMMYYYY (n = 8)          a date written in another order: the
//                                                  output's day reads the input's last two
//                                                  positions, its month the middle, its year the first four
//
// Tokens are drawn uniformly from [0, vocab) by the core's seeded SplitMix64
// generator: the same seed gives the same batches on every platform.
#pragma once

#include "attention/init.hpp"
#include "attention/types.hpp"

#include <cstdint>
#include <string>

namespace attn::train {

enum class Task { reverse, shift, date };

// "reverse", "shift" or "date"; anything else throws, naming the task and the choices
Task parse_task(const std::string& name);
std::string task_name(Task task);

// the input position that output position i (of n) copies
Index task_source(Task task, Index i, Index n);

// Fills `sequences` examples of n tokens: tokens, targets (sequences * n),
// drawing from rng (which advances). Allocates nothing.
void task_fill(Task task, Rng& rng, Index sequences, Index n, Index vocab, std::int32_t* tokens,
               std::int32_t* targets);

}  // namespace attn::train
