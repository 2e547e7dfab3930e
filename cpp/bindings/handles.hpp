// The objects of the core that live between JS calls (an encoder, a trainer,
// a language model), held by JS as handles: numbers, never pointers. One table
// per kind of object; a handle that is not in it (deleted, or never made) is
// an error naming the kind. The facade (cpp/facade/handles.js) already
// refuses a deleted handle's calls; this is the check behind it.
//
//   Handles<Live>& trainers() { static Handles<Live> h("trainer"); return h; }
//   const int handle = trainers().add(Live{...});
//   Live& live = trainers().get(o);     // o["handle"]
//   trainers().remove(o);
#pragma once

#include "bindings/convert.hpp"

#include <map>
#include <utility>

namespace attn::js {

// "this <kind> was deleted" (convert.cpp: one copy of the message's code for every table)
[[noreturn]] void fail_deleted(const char* kind);

// what a raw *_create function answers: { handle }, or { handle, options }
// with the options as used (every field, the core's defaults filled in)
inline val handle_object(int handle) {
    val out = val::object();
    out.set("handle", handle);
    return out;
}
val created(int handle, const val& options);  // (convert.cpp)

template <class T>
class Handles {
public:
    explicit Handles(const char* kind) : kind_(kind) {}

    int add(T item) {
        const int handle = next_++;
        items_.emplace(handle, std::move(item));
        return handle;
    }

    T& get(const val& o) {
        const auto found = items_.find(o["handle"].as<int>());
        if (found == items_.end()) fail_deleted(kind_);
        return found->second;
    }

    void remove(const val& o) {
        get(o);
        items_.erase(o["handle"].as<int>());
    }

private:
    const char* kind_;
    std::map<int, T> items_;
    int next_ = 1;
};

}  // namespace attn::js
