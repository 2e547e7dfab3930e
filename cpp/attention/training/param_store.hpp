// The parameters of a trained model, their gradients and the optimiser's
// state, each in one contiguous float buffer laid out the same way, so one
// optimiser call updates every parameter and a gradient check walks them all.
// Tensors are registered by name and shape, then the buffers are allocated
// once; a step never allocates.
#pragma once

#include "attention/types.hpp"

#include <string>
#include <vector>

namespace attn::train {

struct Tensor {
    std::string name;
    Index rows, cols, offset;  // (rows, cols) row-major at values[offset]
    Index size() const { return rows * cols; }
};

class ParameterStore {
public:
    // Registers a (rows, cols) tensor; returns its index. Call before allocate().
    Index add(const std::string& name, Index rows, Index cols) {
        tensors_.push_back({name, rows, cols, total_});
        total_ += rows * cols;
        return Index(tensors_.size()) - 1;
    }
    // values, gradients, first and second moments: 4 * total() floats, all 0
    void allocate() {
        values_.assign(size_t(total_), 0.0f);
        grads_.assign(size_t(total_), 0.0f);
        first_.assign(size_t(total_), 0.0f);
        second_.assign(size_t(total_), 0.0f);
    }

    Index total() const { return total_; }
    Index count() const { return Index(tensors_.size()); }
    const Tensor& tensor(Index i) const { return tensors_[size_t(i)]; }

    float* value(Index i) { return values_.data() + tensors_[size_t(i)].offset; }
    const float* value(Index i) const { return values_.data() + tensors_[size_t(i)].offset; }
    float* grad(Index i) { return grads() + tensors_[size_t(i)].offset; }
    const float* grad(Index i) const { return (into_ ? into_ : grads_.data()) + tensors_[size_t(i)].offset; }

    // every tensor at once: (total)
    float* values() { return values_.data(); }
    const float* values() const { return values_.data(); }
    float* grads() { return into_ ? into_ : grads_.data(); }
    // the gradients written into (total) floats elsewhere till set back (nullptr): a step in
    // chunks has each chunk's gradient written where its sum is kept, not copied there
    void write_grads_into(float* into) { into_ = into; }
    float* first_moments() { return first_.data(); }
    float* second_moments() { return second_.data(); }

    // a copy of tensor i as a matrix, and setting it from one of the same shape
    Mat get(Index i) const {
        const Tensor& t = tensor(i);
        return Eigen::Map<const Mat>(value(i), t.rows, t.cols);
    }
    Mat get_grad(Index i) const {
        const Tensor& t = tensor(i);
        return Eigen::Map<const Mat>(grad(i), t.rows, t.cols);
    }
    void require_shape(Index i, const MatRef& m) const {
        const Tensor& t = tensor(i);
        require(m.rows() == t.rows && m.cols() == t.cols,
                t.name + " must have shape " + shape(t.rows, t.cols) + ", got " + shape(m));
    }
    void set(Index i, const MatRef& m) {
        require_shape(i, m);
        Eigen::Map<Mat>(value(i), m.rows(), m.cols()) = m;
    }

private:
    std::vector<Tensor> tensors_;
    Index total_ = 0;
    std::vector<float> values_, grads_, first_, second_;
    float* into_ = nullptr;  // write_grads_into's buffer, or none
};

}  // namespace attn::train
