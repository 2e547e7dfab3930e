#include "attention/training/tasks.hpp"

namespace attn::train {

Task parse_task(const std::string& name) {
    if (name == "reverse") return Task::reverse;
    if (name == "shift") return Task::shift;
    if (name == "date") return Task::date;
    fail("task must be 'reverse', 'shift' or 'date', got '" + name + "'");
}

std::string task_name(Task task) {
    switch (task) {
        case Task::reverse: return "reverse";
        case Task::shift: return "shift";
        case Task::date: return "date";
    }
    return "reverse";
}

Index task_source(Task task, Index i, Index n) {
    switch (task) {
        case Task::reverse: return n - 1 - i;
        case Task::shift: return (i + n - 1) % n;
        case Task::date: {  // DD MM YYYY from YYYY MM DD (n = 8, checked by the trainer)
            constexpr Index kSource[8] = {6, 7, 4, 5, 0, 1, 2, 3};
            return i < 8 ? kSource[i] : i;
        }
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
