#include "attention/tasks.hpp"

namespace attn::train {

Task parse_task(const std::string& name) {
    if (name == "reverse") return Task::reverse;
    if (name == "shift") return Task::shift;
    fail("task must be 'reverse' or 'shift', got '" + name + "'");
}

std::string task_name(Task task) { return task == Task::reverse ? "reverse" : "shift"; }

Index task_source(Task task, Index i, Index n) {
    switch (task) {
        case Task::reverse: return n - 1 - i;
        case Task::shift: return (i + n - 1) % n;
    }
    return i;
}

void task_fill(Task task, Rng& rng, Index sequences, Index n, Index vocab, std::int32_t* tokens,
               std::int32_t* targets) {
    for (Index b = 0; b < sequences; ++b) {
        std::int32_t* x = tokens + b * n;
        std::int32_t* y = targets + b * n;
        // uniform on [0, vocab): the top 32 bits scaled, exact in 64-bit integers
        for (Index i = 0; i < n; ++i) x[i] = std::int32_t(((rng.next() >> 32) * std::uint64_t(vocab)) >> 32);
        for (Index i = 0; i < n; ++i) y[i] = x[task_source(task, i, n)];
    }
}

}  // namespace attn::train
