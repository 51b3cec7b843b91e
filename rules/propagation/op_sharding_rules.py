"""Builder hooks for op_sharding_rules.yaml: the parts of a rule that depend on
an op's attributes (dimension numbers, permutations, window shapes...).

Each hook takes the op and the `conservative` flag (plus the keyword
arguments its declaration gives under `with:`), and returns an
OpShardingRule, or None when the op gets no rule.
"""
from __future__ import annotations

import math
from typing import Literal

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from sdy_dsl.hooks import hook
from sdy_dsl.runtime.op_registry import active
from sdy_dsl.runtime.op_sharding_rule import (
    NEED_REPLICATION, NULL_DIM, PASS_THROUGH, PERMUTATION, REDUCTION,
    OpShardingRule, RuleBuilder, factor_roles, tensor_shapes)


# ---------------------------------------------------------------- helpers


def _shapes(op):
    op = op.operation
    return tensor_shapes(op.operands), tensor_shapes(op.results)


def _attr(op: ir.Operation, name: str):
    return op.operation.attributes[name]


def _i64s(op: ir.Operation, name: str) -> list[int]:
    """A DenseI64ArrayAttr (or a dense integer elements attribute) as a list."""
    attr = op.operation.attributes[name]
    if isinstance(attr, ir.DenseI64ArrayAttr):
        return list(attr)
    return [int(x) for x in ir.DenseIntElementsAttr(attr)]


def _int(op: ir.Operation, name: str, default: int | None = None) -> int:
    attrs = op.operation.attributes
    if name not in attrs:
        return default
    return attrs[name].value


def _defining_op_name(value: ir.Value) -> str | None:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    return owner.operation.name


FactorKind = Literal["pass_through", "reduction", "need_replication", "permutation"]
WhenBlocked = Literal["never", "always", "when_conservative"]


def _tensor(shapes_pair, ref: str) -> tuple[int, ...]:
    """The shape named by `ref`: 'operand N' or 'result N'."""
    kind, _, index = ref.partition(" ")
    operand_shapes, result_shapes = shapes_pair
    if kind not in ("operand", "result") or not index.isdigit():
        raise ValueError(f"expected 'operand N' or 'result N', got '{ref}'")
    return (operand_shapes if kind == "operand" else result_shapes)[int(index)]


# ---------------------------------------------------------------- generic shapes


@hook
def pointwise_with_mismatch(op: ir.Operation, conservative: bool = False, sizes_of: str = "operand 0",
                            compare_with: str = "result 0",
                            mismatch: FactorKind = NEED_REPLICATION,
                            blocked: WhenBlocked = "never") -> OpShardingRule:
    """One factor per dimension shared by all non-scalar tensors, sized by the
    tensor `sizes_of`; where its size differs from `compare_with`'s, the factor
    has kind `mismatch` and is blocked when `blocked` says so
    (never | always | when_conservative)."""
    shapes = _shapes(op)
    is_blocked = blocked == "always" or (blocked == "when_conservative" and conservative)
    return (RuleBuilder(*shapes)
            .add_pointwise_with_mismatch_kind(_tensor(shapes, sizes_of),
                                              _tensor(shapes, compare_with), mismatch, is_blocked)
            .build())


# ---------------------------------------------------------------- stablehlo


@hook
def batch_norm_inference(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    operand_shapes, result_shapes = _shapes(op)
    feature_dim = _int(op, "feature_index")
    builder = RuleBuilder(operand_shapes, result_shapes)
    num_operands = len(operand_shapes)
    for dim, size in enumerate(operand_shapes[0]):
        if dim == feature_dim:
            builder.add_factor([dim] + [0] * (num_operands - 1), dim, size)
        else:
            builder.add_factor([dim] + [NULL_DIM] * (num_operands - 1), dim, size)
    return builder.build()


@hook
def bitcast_convert(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (in_shape,), (out_shape,) = _shapes(op)
    builder = RuleBuilder([in_shape], [out_shape])
    # Every dimension but the extra minor one of the narrower element type.
    builder.add_pointwise(in_shape if len(in_shape) < len(out_shape) else out_shape)
    if len(in_shape) < len(out_shape):
        builder.add_factor(NULL_DIM, len(out_shape) - 1, out_shape[-1], NEED_REPLICATION)
    elif len(in_shape) > len(out_shape):
        builder.add_factor(len(in_shape) - 1, NULL_DIM, in_shape[-1], NEED_REPLICATION)
    return builder.build()


@hook
def broadcast_in_dim(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (in_shape,), (out_shape,) = _shapes(op)
    builder = RuleBuilder([in_shape], [out_shape])
    in_dim_of = [NULL_DIM] * len(out_shape)
    for in_dim, out_dim in enumerate(_i64s(op, "broadcast_dimensions")):
        in_dim_of[out_dim] = in_dim
    for out_dim, out_size in enumerate(out_shape):
        in_dim = in_dim_of[out_dim]
        if in_dim != NULL_DIM and in_shape[in_dim] == 1 and out_size != 1:
            # A size-1 input dimension expanded in place: its own size-1 factor.
            builder.add_factor(in_dim, NULL_DIM, 1)
            in_dim = NULL_DIM
        builder.add_factor(in_dim, out_dim, out_size)
    return builder.build()


@hook
@factor_roles("concatenated", "other")
def concatenate(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """One factor per dimension; the concatenated one (absent when conservative)
    is a permutation when the operands are slices of one tensor, else needs replication."""
    operand_shapes, result_shapes = _shapes(op)
    concat_dim = _int(op, "dimension")
    operands = list(op.operation.operands)

    def concat_dim_kind() -> str:
        # Concatenating slices (of one tensor, possibly with that tensor itself)
        # only moves data around: a permutation, not a replication.
        is_slice = [_defining_op_name(v) == "stablehlo.slice" for v in operands]
        if not any(is_slice):
            return NEED_REPLICATION
        if all(is_slice):
            return PERMUTATION
        roots = [v.owner.operands[0] if sliced else v for v, sliced in zip(operands, is_slice)]
        return PERMUTATION if all(r == roots[0] for r in roots) else NEED_REPLICATION

    builder = RuleBuilder(operand_shapes, result_shapes)
    for dim, size in enumerate(result_shapes[0]):
        if dim != concat_dim:
            builder.add_factor_everywhere(dim, size, role="other")
        elif not conservative:
            builder.add_factor_everywhere(dim, size, concat_dim_kind(), role="concatenated")
    return builder.build()


@hook
def convolution(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (lhs_shape, rhs_shape), (out_shape,) = _shapes(op)
    dims = stablehlo.ConvDimensionNumbers(_attr(op, "dimension_numbers"))
    batch_groups = _int(op, "batch_group_count", 1)
    feature_groups = _int(op, "feature_group_count", 1)
    in_batch, in_feature = dims.input_batch_dimension, dims.input_feature_dimension
    k_in_feature = dims.kernel_input_feature_dimension
    k_out_feature = dims.kernel_output_feature_dimension
    out_batch, out_feature = dims.output_batch_dimension, dims.output_feature_dimension

    builder = RuleBuilder([lhs_shape, rhs_shape], [out_shape])
    # With groups, a per-group size of 1 adds nothing to the input dimension
    # that already holds the group factor, and an output feature size of 1
    # gets no factor at all (the reference does the same).
    if batch_groups > 1:
        builder.add_factor([in_batch, k_out_feature], out_feature, batch_groups)
    per_group_batch = out_shape[out_batch]
    builder.add_factor([NULL_DIM if batch_groups > 1 and per_group_batch == 1 else in_batch,
                        NULL_DIM], out_batch, per_group_batch)

    if not conservative:
        for lhs_dim, rhs_dim, out_dim in zip(dims.input_spatial_dimensions,
                                             dims.kernel_spatial_dimensions,
                                             dims.output_spatial_dimensions):
            # An input spatial dimension splits into the number of windows
            # (the output dimension) and the window size (the kernel
            # dimension); the larger one becomes the major factor.
            num_windows, window_size = out_shape[out_dim], rhs_shape[rhs_dim]
            remaining = lhs_shape[lhs_dim]

            def add_spatial(size: int, is_window: bool) -> None:
                nonlocal remaining
                size = min(remaining, size)
                if size > 1:
                    if is_window:
                        builder.add_factor([lhs_dim, rhs_dim], NULL_DIM, size, REDUCTION)
                    else:
                        builder.add_factor([lhs_dim, NULL_DIM], out_dim, size, PERMUTATION)
                    remaining //= size

            if num_windows >= window_size:
                add_spatial(num_windows, False)
                add_spatial(window_size, True)
            else:
                add_spatial(window_size, True)
                add_spatial(num_windows, False)

    if feature_groups > 1:
        builder.add_factor([in_feature, k_out_feature], out_feature, feature_groups)
    per_group_in_feature = rhs_shape[k_in_feature]
    builder.add_factor(
        [NULL_DIM if feature_groups > 1 and per_group_in_feature == 1 else in_feature,
         k_in_feature], NULL_DIM, per_group_in_feature, REDUCTION)
    per_group_out_feature = out_shape[out_feature] // (batch_groups * feature_groups)
    if per_group_out_feature > 1:
        builder.add_factor([NULL_DIM, k_out_feature], out_feature, per_group_out_feature)
    return builder.build()


@hook
@factor_roles("lhs_non_contracting", "rhs_non_contracting", "contracting")
def dot(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """A vector or matrix product: the non-contracting dimensions pass through,
    the contracting one is a reduction factor."""
    (lhs_shape, rhs_shape), result_shapes = _shapes(op)
    builder = RuleBuilder([lhs_shape, rhs_shape], result_shapes)
    lhs_is_matrix, rhs_is_matrix = len(lhs_shape) == 2, len(rhs_shape) == 2
    if lhs_is_matrix:
        builder.add_factor([0, NULL_DIM], 0, lhs_shape[0], role="lhs_non_contracting")
    if rhs_is_matrix:
        builder.add_factor([NULL_DIM, 1], 1 if lhs_is_matrix else 0, rhs_shape[1], role="rhs_non_contracting")
    builder.add_factor([1 if lhs_is_matrix else 0, 0], NULL_DIM, rhs_shape[0], REDUCTION, role="contracting")
    return builder.build()


@hook
@factor_roles("batch", "lhs_non_contracting", "rhs_non_contracting", "contracting")
def dot_general(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """One factor per batching dimension pair, per non-contracting dimension of
    each side (in the result's order), and a reduction factor per contracting
    dimension pair."""
    (lhs_shape, rhs_shape), result_shapes = _shapes(op)
    dims = stablehlo.DotDimensionNumbers(_attr(op, "dot_dimension_numbers"))
    lhs_batch, rhs_batch = dims.lhs_batching_dimensions, dims.rhs_batching_dimensions
    lhs_contract, rhs_contract = dims.lhs_contracting_dimensions, dims.rhs_contracting_dimensions
    builder = RuleBuilder([lhs_shape, rhs_shape], result_shapes)
    out_dim = 0
    for lhs_dim, rhs_dim in zip(lhs_batch, rhs_batch):
        builder.add_factor([lhs_dim, rhs_dim], out_dim, lhs_shape[lhs_dim], role="batch")
        out_dim += 1
    for lhs_dim, size in enumerate(lhs_shape):
        if lhs_dim not in lhs_contract and lhs_dim not in lhs_batch:
            builder.add_factor([lhs_dim, NULL_DIM], out_dim, size, role="lhs_non_contracting")
            out_dim += 1
    for rhs_dim, size in enumerate(rhs_shape):
        if rhs_dim not in rhs_contract and rhs_dim not in rhs_batch:
            builder.add_factor([NULL_DIM, rhs_dim], out_dim, size, role="rhs_non_contracting")
            out_dim += 1
    for lhs_dim, rhs_dim in zip(lhs_contract, rhs_contract):
        builder.add_factor([lhs_dim, rhs_dim], NULL_DIM, lhs_shape[lhs_dim], REDUCTION, role="contracting")
    return builder.build()


@hook
def dynamic_update_slice(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    operand_shapes, result_shapes = _shapes(op)
    operand_shape, update_shape = operand_shapes[0], operand_shapes[1]
    builder = RuleBuilder(operand_shapes, result_shapes)
    no_dims = [NULL_DIM] * len(operand_shapes)
    # With constant start indices the partitioner needs no replicated update.
    interfaces = active().interfaces
    constant_indices = all(interfaces.is_constant_like(v) for v in list(op.operation.operands)[2:])
    for dim, (operand_size, update_size) in enumerate(zip(operand_shape, update_shape)):
        if operand_size == update_size:
            builder.add_factor_everywhere(dim, operand_size)
        else:
            # The operand stays sharded (each shard updates its local part);
            # the update needs replication along this dimension.
            builder.add_factor([dim] + no_dims[1:], dim, operand_size)
            builder.add_factor([NULL_DIM, dim] + no_dims[2:], NULL_DIM, update_size,
                               PASS_THROUGH if constant_indices else NEED_REPLICATION)
    return builder.build()


@hook
def fft(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (in_shape,), (out_shape,) = _shapes(op)
    num_fft_dims = len(_i64s(op, "fft_length"))
    builder = RuleBuilder([in_shape], [out_shape])
    rank = len(in_shape)
    for dim, size in enumerate(in_shape):
        if dim < rank - num_fft_dims:
            builder.add_factor_everywhere(dim, size)
        elif dim < rank - 1:
            builder.add_factor_everywhere(dim, size, NEED_REPLICATION)
        else:
            # A truncated last dimension (real FFTs) cannot propagate.
            builder.add_factor_everywhere(dim, size, NEED_REPLICATION,
                                          blocked=in_shape[-1] != out_shape[-1])
    return builder.build()


def _gather_scatter_factors(is_scatter: bool, implicit_batch_kind: str, input_shape, slices_shape, indices_shape,
                            index_vector_dim: int, offset_dims, collapsed_dims,
                            input_batching_dims, indices_batching_dims, add) -> None:
    """Factors shared by gather and scatter. `add(input_dim, indices_dim,
    slices_dim, size, kind, blocked)` maps one factor."""
    input_dim = 0
    batch_pos = 0
    for slices_dim, slices_size in enumerate(slices_shape):
        if slices_dim in offset_dims:
            # An offset (window) dimension: find its input dimension.
            while input_dim in collapsed_dims or input_dim in input_batching_dims:
                input_dim += 1
            input_size = input_shape[input_dim]
            if input_size == slices_size:
                add(input_dim, NULL_DIM, slices_dim, input_size, PASS_THROUGH, False)
            elif is_scatter:
                add(input_dim, NULL_DIM, NULL_DIM, input_size, NEED_REPLICATION, False)
                add(NULL_DIM, NULL_DIM, slices_dim, slices_size, NEED_REPLICATION, False)
            elif slices_size == 1:
                # Keeping the input sharded needs an all-reduce of the result.
                add(input_dim, NULL_DIM, NULL_DIM, input_size, REDUCTION, False)
                add(NULL_DIM, NULL_DIM, slices_dim, slices_size, NEED_REPLICATION, False)
            else:
                add(input_dim, NULL_DIM, slices_dim, input_size, NEED_REPLICATION, True)
            input_dim += 1
        else:
            # A batch dimension of the indices (skipping the index vector dim).
            indices_dim = batch_pos if batch_pos < index_vector_dim else batch_pos + 1
            if indices_dim in indices_batching_dims:
                input_batch_dim = input_batching_dims[indices_batching_dims.index(indices_dim)]
                kind = PASS_THROUGH
            else:
                input_batch_dim = NULL_DIM
                # Scatter results must be combined over implicit batch dims.
                kind = implicit_batch_kind
            add(input_batch_dim, indices_dim, slices_dim, slices_size, kind, False)
            batch_pos += 1

    for collapsed_dim in collapsed_dims:
        # Gather: sharding a size-1 dimension is meaningless, so it is replicated;
        # a larger one may be sharded, at the cost of an all-reduce of the result.
        size = input_shape[collapsed_dim]
        kind = PASS_THROUGH if is_scatter else (NEED_REPLICATION if size == 1 else REDUCTION)
        add(collapsed_dim, NULL_DIM, NULL_DIM, size, kind, False)

    if index_vector_dim < len(indices_shape):
        add(NULL_DIM, index_vector_dim, NULL_DIM, indices_shape[index_vector_dim],
            NEED_REPLICATION, False)


@hook
def gather(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    operand_shapes, result_shapes = _shapes(op)
    input_shape, indices_shape = operand_shapes[0], operand_shapes[1]
    dims = stablehlo.GatherDimensionNumbers(_attr(op, "dimension_numbers"))
    builder = RuleBuilder(operand_shapes, result_shapes)

    def add(input_dim, indices_dim, slices_dim, size, kind, blocked):
        builder.add_factor([input_dim, indices_dim], slices_dim, size, kind, blocked)

    _gather_scatter_factors(False, PASS_THROUGH, input_shape, result_shapes[0], indices_shape,
                            dims.index_vector_dim, list(dims.offset_dims),
                            list(dims.collapsed_slice_dims), list(dims.operand_batching_dims),
                            list(dims.start_indices_batching_dims), add)
    return builder.build()



def _combines_updates(op: ir.Operation, num_inputs: int, combiners) -> bool:
    """Whether the update computation returns, for each input k, the same one
    of `combiners` applied to (current value k, update k): then updates
    scattered from different shards can be merged with an all-reduce."""
    block = op.operation.regions[0].blocks[0]
    args = list(block.arguments)
    terminator = list(block.operations)[-1]
    returned = list(terminator.operands)
    if len(returned) != num_inputs or len(args) != 2 * num_inputs:
        return False
    combiner = None
    for k, value in enumerate(returned):
        owner = value.owner
        if isinstance(owner, ir.Block):
            return False
        owner = owner.operation
        if owner.name not in combiners or len(owner.operands) != 2:
            return False
        if combiner not in (None, owner.name):
            return False
        combiner = owner.name
        lhs, rhs = owner.operands
        current, update = args[k], args[k + num_inputs]
        if not ((lhs == current and rhs == update) or (lhs == update and rhs == current)):
            return False
    return True


@hook
def scatter(op: ir.Operation, conservative: bool = False,
            combiners: list = ()) -> OpShardingRule:
    """Implicit batch dimensions (in the indices and updates only) are a
    reduction when the update computation combines values with one of
    `combiners` (the op names the rule file lists), else they need
    replication (e.g. x.at[i].set)."""
    operand_shapes, result_shapes = _shapes(op)
    num_inputs = len(result_shapes)
    input_shape = operand_shapes[0]
    indices_shape = operand_shapes[num_inputs]
    slices_shape = operand_shapes[num_inputs + 1]
    dims = stablehlo.ScatterDimensionNumbers(_attr(op, "scatter_dimension_numbers"))
    builder = RuleBuilder(operand_shapes, result_shapes)

    def add(input_dim, indices_dim, slices_dim, size, kind, blocked):
        operand_dims = [input_dim] * num_inputs + [indices_dim] + [slices_dim] * num_inputs
        builder.add_factor(operand_dims, [input_dim] * num_inputs, size, kind, blocked)

    implicit_batch_kind = (REDUCTION if _combines_updates(op, num_inputs, combiners)
                           else NEED_REPLICATION)
    _gather_scatter_factors(True, implicit_batch_kind, input_shape, slices_shape, indices_shape,
                            dims.index_vector_dim, list(dims.update_window_dims),
                            list(dims.inserted_window_dims), list(dims.input_batching_dims),
                            list(dims.scatter_indices_batching_dims), add)
    return builder.build()


@hook
@factor_roles("kept", "reduced")
def reduce(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """One factor per operand dimension: a reduced one is a reduction factor, a kept one passes through."""
    operand_shapes, result_shapes = _shapes(op)
    num_inputs = len(result_shapes)
    reduced = set(_i64s(op, "dimensions"))
    builder = RuleBuilder(operand_shapes, result_shapes)
    inits = [NULL_DIM] * (len(operand_shapes) - num_inputs)
    out_dim = 0
    for in_dim, size in enumerate(operand_shapes[0]):
        operand_dims = [in_dim] * num_inputs + inits
        if in_dim in reduced:
            builder.add_factor(operand_dims, [NULL_DIM] * num_inputs, size, REDUCTION, role="reduced")
        else:
            builder.add_factor(operand_dims, [out_dim] * num_inputs, size, role="kept")
            out_dim += 1
    return builder.build()


def _windowed_dims(op: ir.Operation, rank: int) -> list[bool]:
    """Whether each dimension has a real window: size, stride or padding."""
    attrs = op.operation.attributes
    window = _i64s(op, "window_dimensions")
    strides = _i64s(op, "window_strides") if "window_strides" in attrs else [1] * rank
    padding = _i64s(op, "padding") if "padding" in attrs else [0] * (2 * rank)
    return [window[d] != 1 or strides[d] != 1 or padding[2 * d] != 0 or padding[2 * d + 1] != 0
            for d in range(rank)]


@hook
@factor_roles("windowed", "other")
def reduce_window(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """A windowed dimension can be sharded along the number of windows (the
    result size), which needs a halo exchange: a permutation."""
    operand_shapes, result_shapes = _shapes(op)
    windowed = _windowed_dims(op, len(result_shapes[0]))
    builder = RuleBuilder(operand_shapes, result_shapes)
    for dim, size in enumerate(result_shapes[0]):
        if windowed[dim]:
            builder.add_factor_everywhere(dim, size, PERMUTATION, blocked=conservative, role="windowed")
        else:
            builder.add_factor_everywhere(dim, size, role="other")
    return builder.build()


@hook
def select_and_scatter(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """(operand, source, init) -> result. Along a windowed dimension the source
    (one value per window) needs replication, the operand a permutation."""
    operand_shapes, result_shapes = _shapes(op)
    operand_shape, source_shape = operand_shapes[0], operand_shapes[1]
    windowed = _windowed_dims(op, len(operand_shape))
    builder = RuleBuilder(operand_shapes, result_shapes)
    for dim, size in enumerate(operand_shape):
        if windowed[dim]:
            builder.add_factor([NULL_DIM, dim, NULL_DIM], NULL_DIM, source_shape[dim],
                               NEED_REPLICATION, blocked=conservative)
            builder.add_factor([dim, NULL_DIM, NULL_DIM], dim, size, PERMUTATION,
                               blocked=conservative)
        else:
            builder.add_factor_everywhere(dim, size)
    return builder.build()


@hook
def reshape(op: ir.Operation, conservative: bool = False) -> OpShardingRule | None:
    (in_shape,), (out_shape,) = _shapes(op)
    if math.prod(in_shape) == 0:
        return None  # nothing to propagate through an empty tensor
    builder = RuleBuilder([in_shape], [out_shape])
    in_rank, out_rank = len(in_shape), len(out_shape)
    in_dim = out_dim = 0
    # Products of the dimension sizes visited so far, and of the factors
    # given to them; a dimension is done when the two products meet.
    in_dims_product = out_dims_product = 1
    in_factors_product = out_factors_product = 1

    while in_dim < in_rank or out_dim < out_rank:
        if in_dim < in_rank and in_shape[in_dim] == 1:
            builder.add_factor(in_dim, NULL_DIM, 1)
            in_dim += 1
            continue
        if out_dim < out_rank and out_shape[out_dim] == 1:
            builder.add_factor(NULL_DIM, out_dim, 1)
            out_dim += 1
            continue
        if in_dim < in_rank and in_dims_product == in_factors_product:
            in_dims_product *= in_shape[in_dim]
        if out_dim < out_rank and out_dims_product == out_factors_product:
            out_dims_product *= out_shape[out_dim]

        next_in = in_dims_product // in_factors_product
        next_out = out_dims_product // out_factors_product
        common = math.gcd(next_in, next_out)

        def factor_after_divergence(next_factor, behind, ahead):
            # Prefer the factor that lets both sides meet again, else one that
            # keeps the common divisor for the next step.
            if ahead % behind == 0 and next_factor % (ahead // behind) == 0:
                return ahead // behind
            if next_factor > common:
                return next_factor // common
            return next_factor

        if in_factors_product == out_factors_product:
            if common > 1:
                builder.add_factor(in_dim, out_dim, common)
                in_factors_product *= common
                out_factors_product *= common
            else:
                builder.add_factor(in_dim, NULL_DIM, next_in)
                in_factors_product *= next_in
                builder.add_factor(NULL_DIM, out_dim, next_out)
                out_factors_product *= next_out
        elif in_factors_product < out_factors_product:
            next_in = factor_after_divergence(next_in, in_factors_product, out_factors_product)
            builder.add_factor(in_dim, NULL_DIM, next_in)
            in_factors_product *= next_in
        else:
            next_out = factor_after_divergence(next_out, out_factors_product, in_factors_product)
            builder.add_factor(NULL_DIM, out_dim, next_out)
            out_factors_product *= next_out

        if in_dim < in_rank and in_dims_product == in_factors_product:
            in_dim += 1
        if out_dim < out_rank and out_dims_product == out_factors_product:
            out_dim += 1
    return builder.build()


@hook
def reverse(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    operand_shapes, result_shapes = _shapes(op)
    reversed_dims = set(_i64s(op, "dimensions"))
    return (RuleBuilder(operand_shapes, result_shapes)
            .add_pointwise(result_shapes[0],
                           lambda d: PERMUTATION if d in reversed_dims else PASS_THROUGH)
            .build())


@hook
def rng_bit_generator(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (state_shape,), (out_state_shape, out_shape) = _shapes(op)
    builder = RuleBuilder([state_shape], [out_state_shape, out_shape])
    # The states must stay replicated; nothing propagates between them.
    for dim, size in enumerate(state_shape):
        builder.add_factor(dim, [dim, NULL_DIM], size, NEED_REPLICATION, blocked=True)
    for dim, size in enumerate(out_shape):
        builder.add_factor(NULL_DIM, [NULL_DIM, dim], size)
    return builder.build()


@hook
@factor_roles("sorted", "other")
def sort(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """One factor per dimension; the sorted one needs replication (and is blocked
    when no other dimension could be sharded)."""
    operand_shapes, result_shapes = _shapes(op)
    shape = operand_shapes[0]
    # A negative dimension matches no dimension, as in the reference.
    sort_dim = _int(op, "dimension", -1)
    # Only when nothing else can be sharded is propagation along the sort dim blocked.
    only_sort_dim = all(d == sort_dim or size == 1 for d, size in enumerate(shape))
    builder = RuleBuilder(operand_shapes, result_shapes)
    for dim, size in enumerate(shape):
        if dim == sort_dim:
            builder.add_factor_everywhere(dim, size, NEED_REPLICATION, blocked=only_sort_dim, role="sorted")
        else:
            builder.add_factor_everywhere(dim, size, role="other")
    return builder.build()


@hook
def transpose(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (in_shape,), result_shapes = _shapes(op)
    builder = RuleBuilder([in_shape], result_shapes)
    for out_dim, in_dim in enumerate(_i64s(op, "permutation")):
        builder.add_factor(in_dim, out_dim, in_shape[in_dim])
    return builder.build()


@hook
def triangular_solve(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    (a_shape, b_shape), result_shapes = _shapes(op)
    builder = RuleBuilder([a_shape, b_shape], result_shapes)
    builder.add_pointwise(a_shape[:-2])
    dim1, dim2 = len(a_shape) - 2, len(a_shape) - 1
    transpose_a = stablehlo.TransposeAttr(_attr(op, "transpose_a")).value
    a_transposed = transpose_a in ("TRANSPOSE", "ADJOINT")
    left_side = _attr(op, "left_side").value
    if left_side:
        # op(a) @ x = b
        a_free, a_contract = (dim2, dim1) if a_transposed else (dim1, dim2)
        builder.add_factor([a_free, dim1], NULL_DIM, a_shape[a_free], NEED_REPLICATION)
        builder.add_factor([NULL_DIM, dim2], dim2, b_shape[dim2], NEED_REPLICATION)
        builder.add_factor([a_contract, NULL_DIM], dim1, a_shape[a_contract], NEED_REPLICATION)
    else:
        # x @ op(a) = b
        a_free, a_contract = (dim1, dim2) if a_transposed else (dim2, dim1)
        builder.add_factor([NULL_DIM, dim1], dim1, b_shape[dim1], NEED_REPLICATION)
        builder.add_factor([a_free, dim2], NULL_DIM, a_shape[a_free], NEED_REPLICATION)
        builder.add_factor([a_contract, NULL_DIM], dim2, a_shape[a_contract], NEED_REPLICATION)
    return builder.build()


# ---------------------------------------------------------------- collectives


def _gathered_dim_rule(op: ir.Operation, dim_attr: str) -> OpShardingRule:
    """all_gather / reduce_scatter: the gathered (scattered) dimension changes
    size, so operands and results get a factor of their own there."""
    operand_shapes, result_shapes = _shapes(op)
    dim = _int(op, dim_attr)
    builder = RuleBuilder(operand_shapes, result_shapes)
    builder.add_pointwise_if(operand_shapes[0], lambda d: d != dim)
    builder.add_factor(dim, NULL_DIM, operand_shapes[0][dim], NEED_REPLICATION)
    builder.add_factor(NULL_DIM, dim, result_shapes[0][dim], NEED_REPLICATION)
    return builder.build()


@hook
def all_gather(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    return _gathered_dim_rule(op, "all_gather_dim")


@hook
def reduce_scatter(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    return _gathered_dim_rule(op, "scatter_dimension")


@hook
def all_to_all(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    operand_shapes, result_shapes = _shapes(op)
    split_dim, concat_dim = _int(op, "split_dimension"), _int(op, "concat_dimension")
    builder = RuleBuilder(operand_shapes, result_shapes)
    builder.add_pointwise_if(operand_shapes[0], lambda d: d not in (split_dim, concat_dim))
    for dim in dict.fromkeys((split_dim, concat_dim)):
        builder.add_factor(dim, NULL_DIM, operand_shapes[0][dim], NEED_REPLICATION)
        builder.add_factor(NULL_DIM, dim, result_shapes[0][dim], NEED_REPLICATION)
    return builder.build()


# ---------------------------------------------------------------- custom calls


@hook
def approx_top_k(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """ApproxTopK / PartialReduce: (operand, iota, init value, init index) ->
    (values, indices); the reduced dimension shrinks."""
    operand_shapes, result_shapes = _shapes(op)
    builder = RuleBuilder(operand_shapes, result_shapes)
    for dim, (in_size, out_size) in enumerate(zip(operand_shapes[0], result_shapes[0])):
        if in_size == out_size:
            builder.add_factor_everywhere(dim, in_size)
        else:
            builder.add_factor([dim, dim, NULL_DIM, NULL_DIM], [NULL_DIM, NULL_DIM], in_size)
            builder.add_factor([NULL_DIM] * 4, [dim, dim], out_size, NEED_REPLICATION,
                               blocked=True)
    return builder.build()


@hook
def x64_combine(op: ir.Operation, conservative: bool = False) -> OpShardingRule:
    """Pointwise, but replicated and blocked when a rng_bit_generator consumes
    the result: its initial state must be replicated and cannot be resharded."""
    operand_shapes, result_shapes = _shapes(op)
    feeds_rng = any(use.owner.operation.name == "stablehlo.rng_bit_generator"
                    for result in op.operation.results for use in result.uses)
    kind = NEED_REPLICATION if feeds_rng else PASS_THROUGH
    return (RuleBuilder(operand_shapes, result_shapes)
            .add_pointwise(result_shapes[0], lambda d: kind, blocked=feeds_rng)
            .build())
