"""The pass driver of sdy-insert-explicit-reshards (Shardy's
insert_explicit_reshards.cc).

After propagation an op's operands and results may disagree on how a factor
of its sharding rule is sharded. The pass makes them agree, op by op, by
inserting `sdy.reshard` ops (and `sdy.all_reduce` for reduction factors and
unreduced axes), the way Shardy's pass does (jaxlib 0.10.2):

- the sharding projection (runtime/sharding_projection.py) maps the op's
  tensor shardings onto its factors;
- `find_common_axes` (explicit_reshards_util.py) picks one set of axes per factor;
- the projection, updated with the common axes, is projected back, and each
  tensor that changed gets a reshard (reshard_placement.py).

The driver visits the ops of a function, chooses each op's mesh, resolves the
full or the non-full version (the dot fix, reshapes with overflow axes), and
reshards returns, data-flow ops and calls to their targets. What a user may
tune is a `Policy`, read from the pass's rule file. Where the reference
checks an invariant and aborts, `ReshardError` carries the op and the message.
"""
from __future__ import annotations

from typing import Sequence

from jaxlib.mlir import ir

from . import interfaces
from .op_sharding_rule import REDUCTION, SHARDING_RULE_ATTR, OpShardingRule
from .op_sharding_rule_registry import sharding_rule_for
from .sharding_projection import ShardingProjection
from .sharding_store import erase_manual_axes
from .sharding import AxisRef, Mesh, TensorSharding, codec
from .values import PostOrderFinder, block_terminator, module_of, operation, structure_key
from .explicit_reshards_util import (AxesPerFactor, ReshardError, find_common_axes, gathering_reductions,
                                     greatest_common_prefix_axes, has_overflow, is_equivalent,
                                     is_fully_replicated, num_elements, redistribute,
                                     replicated_sharding, tensor_sharding_size, tensor_sizes,
                                     update_sharding, value_rank)
from .reshard_placement import ReshardPlacement


class PassCache:
    """What the functions of one pass run share: each op structure's rule, the
    op names the pass can change outside the full version, where each op name
    keeps the shardings the pass reads, callees with unreduced axes."""

    def __init__(self, table, policy):
        self.rules: dict = {}  # structure key -> rule (see ExplicitReshards.rule_of)
        self.dot_fixes: dict = {}  # see ExplicitReshards.fix_dot_once_per_structure
        self.callees: dict = {}  # callee name -> whether its signature has unreduced axes
        # Outside the full version, in a function without unreduced axes, only
        # these ops can change: dots and the ops the policy resolves fully (the
        # others' visit returns early; a data-flow op's or a call's reshards to
        # their targets are all unreduced collectives, or of the full version).
        self.changing = frozenset(
            name for name, decl in table.ops.items() if "dot" in decl.traits
        ) | policy.full_version_ops | policy.full_version_if_operand_differs | policy.gathering_ops
        self.find_changing = PostOrderFinder(self.changing)
        self._slot_attrs: dict = {}  # op name -> the attributes of its sharding slots
        self._unreduced: dict = {}  # sharding attribute -> whether it has unreduced axes
        self._signature_unreduced: dict = {}  # a function's arg_attrs or res_attrs -> the same
        self._arg_shardings: dict = {}  # a function's arg_attrs -> its arguments' shardings
        self._module_unreduced: bool | None = None  # see module_has_unreduced
        self._scan_plans: dict = {}  # op name -> see _scan_plan
        self._table = table

    def slot_attrs(self, name: str) -> tuple:
        """The attributes where ops named `name` keep the shardings the pass
        reads (rules/interfaces.yaml: results and block-arg slots)."""
        found = self._slot_attrs.get(name)
        if found is None:
            slots = (self._table.result_slot(name), self._table.of(name).block_args)
            found = self._slot_attrs[name] = tuple(
                slot.attr for slot in slots if slot is not None and slot.kind != "func-arg-attrs")
        return found

    def has_unreduced(self, attr: ir.Attribute) -> bool:
        """Whether a sharding attribute has unreduced axes (another attribute has none)."""
        found = self._unreduced.get(attr)
        if found is None and "unreduced" not in str(attr):
            # (printed only when a sharding has some: no need to parse it)
            found = self._unreduced[attr] = False
        if found is None:
            kind = codec.sharding_kind(attr)
            shardings = ((codec.tensor_sharding(attr),) if kind == "single" else
                         codec.sharding_per_value(attr) if kind == "per_value" else ())
            found = self._unreduced[attr] = any(s.unreduced for s in shardings)
        return found

    def signature_has_unreduced(self, func: ir.Operation) -> bool:
        """Whether a sharding of the function's arguments or results has unreduced axes."""
        attrs = func.attributes
        for key in ("arg_attrs", "res_attrs"):
            attr = attrs.get(key)
            if attr is None:
                continue
            found = self._signature_unreduced.get(attr)
            if found is None:
                dicts = [ir.DictAttr(d) for d in ir.ArrayAttr(attr)]
                found = self._signature_unreduced[attr] = any(
                    codec.tensor_sharding(d["sdy.sharding"]).unreduced for d in dicts if "sdy.sharding" in d)
            if found:
                return True
        return False

    def callee_has_unreduced(self, call: ir.Operation, funcs: dict | None) -> bool:
        """Whether the callee's signature has unreduced axes (an unknown callee may)."""
        name = ir.FlatSymbolRefAttr(call.attributes[self._table.callee_attr(call.name)]).value
        found = self.callees.get(name)
        if found is None:
            callee = _lookup_func(call, name, funcs)
            found = self.callees[name] = callee is None or self.signature_has_unreduced(callee)
        return found

    def arg_shardings(self, func: ir.Operation | None, count: int) -> list:
        """The shardings of the function's first `count` arguments (None: none),
        read once per attribute."""
        if func is None or "arg_attrs" not in func.attributes:
            return [None] * count
        attr = func.attributes["arg_attrs"]
        found = self._arg_shardings.get(attr)
        if found is None:
            found = self._arg_shardings[attr] = [
                codec.tensor_sharding(d["sdy.sharding"]) if "sdy.sharding" in d else None
                for d in map(ir.DictAttr, ir.ArrayAttr(attr))]
        return found[:count]

    def module_has_unreduced(self, func: ir.Operation, funcs: dict | None) -> bool:
        """Whether an op of the module (or a callee's signature) keeps unreduced
        axes, asked once per pass run (the pass makes none out of none)."""
        if self._module_unreduced is None:
            found = False
            plans = self._scan_plans
            unreduced = self._unreduced
            advance, interrupt = ir.WalkResult.ADVANCE, ir.WalkResult.INTERRUPT

            def scan(op):  # keeps_unreduced and callee_has_unreduced, inlined: every op comes here
                nonlocal found
                name = op.name
                plan = plans.get(name)
                if plan is None:
                    plan = self._scan_plan(name)
                slot_attrs, is_call = plan
                if slot_attrs is None:  # a function: its signature
                    found = self.signature_has_unreduced(op)
                elif slot_attrs:
                    attrs = op.attributes
                    for attr_name in slot_attrs:
                        attr = attrs.get(attr_name)
                        if attr is None:
                            continue
                        found = unreduced.get(attr)
                        if found is None:
                            found = self.has_unreduced(attr)
                        if found:
                            break
                if not found and is_call:
                    found = self.callee_has_unreduced(op, funcs)
                return interrupt if found else advance

            module_of(func).walk(scan)
            self._module_unreduced = found
        return self._module_unreduced

    def _scan_plan(self, name: str) -> tuple:
        """What module_has_unreduced reads of ops named `name`: their sharding
        slot attributes (None: a function's signature) and whether they are calls."""
        plan = self._scan_plans[name] = (
            None if name == "func.func" else self.slot_attrs(name), self._table.callee_attr(name) is not None)
        return plan

    def keeps_unreduced(self, op: ir.Operation, name: str) -> bool:
        """Whether a sharding slot of the op (not its nested ops') has unreduced axes."""
        if name == "func.func":
            return self.signature_has_unreduced(op)
        attrs = op.attributes
        for attr_name in self.slot_attrs(name):
            attr = attrs.get(attr_name)
            if attr is not None and self.has_unreduced(attr):
                return True
        return False


class ExplicitReshards(ReshardPlacement):
    """The pass over one function."""

    cache: PassCache | None = None  # shared by the pass run's functions (else one per function)

    # ------------------------------------------------------------------ driver (IER:834-941)
    def run(self, func: ir.Operation) -> None:
        func = operation(func)
        if not len(func.regions) or not len(func.regions[0].blocks):
            raise ReshardError(func, "cannot insert explicit reshards in a function declaration "
                                     "(it has no body)")
        cache = self.cache
        if cache is None:
            cache = self.cache = PassCache(self._table, self.policy)
        self._rules = cache.rules
        # What was known of another function's values goes (an erased value's address may be reused).
        self._shardings.clear()
        self._store.owners.clear()
        args = func.regions[0].blocks[0].arguments
        self._func_args = dict(zip(args, cache.arg_shardings(func, len(args))))
        # The pass never makes unreduced axes out of none: without any in the
        # module, its unreduced steps cannot apply and, outside the full
        # version, only some ops can change (and no return operand).
        if not self.full and not cache.module_has_unreduced(func, self.funcs):
            self._unreduced = False
            for op in cache.find_changing(func):
                self.visit(op)
            return
        ops: list[ir.Operation] = []
        unreduced = False
        table = self._table

        def collect(op):
            nonlocal unreduced
            ops.append(op)
            if not unreduced:
                name = op.name
                unreduced = cache.keeps_unreduced(op, name) or (
                    table.callee_attr(name) is not None and cache.callee_has_unreduced(op, self.funcs))
            return ir.WalkResult.ADVANCE

        func.walk(collect, ir.WalkOrder.POST_ORDER)
        ops.pop()  # the function itself
        # Without unreduced axes in the func (or its callees' signatures) the
        # shardings its unreduced steps would read need not be read.
        self._unreduced = unreduced
        owners = self._store.owners  # (a result's op, known here, is costly to ask the IR)
        for op in ops:
            for result in op.results:
                owners[result] = op
        for op in ops:
            self.visit(op)
        body = func.regions[0].blocks[0]
        self.reshard_return(operation(body.operations[len(body.operations) - 1]), func)

    def on_full_version(self, op: ir.Operation) -> bool:
        if self.full or op.name in self.policy.full_version_ops:
            return True
        if op.name in self.policy.gathering_ops and self.policy.gathers_reductions(op, self._table):
            return True  # (gathering the operands is a resolution of the op, which only the full version makes)
        if op.name in self.policy.full_version_if_operand_differs and len(op.results):
            result = self.sharding(op.results[0])
            return any(self.sharding(v) != result for v in op.operands)
        return False

    def visit(self, op: ir.Operation) -> None:
        table = self._table
        if table.is_terminator(op):
            return
        full = self.on_full_version(op)
        if table.data_flow(op) is not None:
            self.reshard_data_flow_op(op, full)
            return
        if table.callee_attr(op.name) is not None:
            self.reshard_call(op, full)
            return
        if self.convert_reshard_to_unreduced_collectives(op):
            return
        if not full and not self._unreduced:
            if self._table.has_trait(op, "dot"):
                self.fix_dot_once_per_structure(op)
            return  # outside the full version, without unreduced axes, only the dot fix applies
        if self._unreduced:
            self.all_reduce_unreduced_operands(op)
        if not full and not self._table.has_trait(op, "dot") and not (
                self._unreduced and self._unreduced_result(op)):
            return  # outside the full version only a dot or an unreduced result can change
        in_shardings = [self.sharding_bypassing_barriers(v) for v in op.operands]
        out_shardings = self.result_shardings_bypassing_barriers(op)
        rule = self.rule_of(op)
        if rule is None or rule.is_custom:
            return
        if full and op.name in self.policy.gathering_ops and self.policy.gathers_reductions(op, self._table):
            rule = gathering_reductions(rule)
        mesh_name = self.choose_mesh(op, in_shardings, out_shardings)
        if mesh_name is None:
            return
        mesh = self.meshes.meshes[mesh_name]
        projection = ShardingProjection.build(in_shardings, out_shardings, rule, mesh, closed_if_missing=True)
        self._restore = []
        common = self.process_op(op, projection, in_shardings, out_shardings, rule, mesh_name, mesh, full)
        after_op = {
            "all-reduces": lambda: self.all_reduce_reduction_factors(op, projection, common, rule, mesh_name,
                                                                     mesh, full),
            "result-reshards": lambda: self.restore_results(op),
        }
        # Each group goes right after the op: the nearest is created last.
        for group in reversed(self.policy.after_op):
            after_op[group]()

    def fix_dot_once_per_structure(self, op) -> None:
        """The non-full dot fix (all that can change a dot outside the full
        version without unreduced axes): decided once per op structure and
        tensor shardings (the layers of a model repeat them), applied to each."""
        ins = [self.sharding_bypassing_barriers(v) for v in op.operands]
        outs = self.result_shardings_bypassing_barriers(op)
        key = _dot_structure(op)
        # Shardings are decoded once per attribute: identical objects for one
        # attribute. The entry keeps them alive, so their ids stay theirs.
        memo_key = (key, tuple(map(id, ins)), tuple(map(id, outs))) if key is not None else None
        hit = self.cache.dot_fixes.get(memo_key) if memo_key is not None else None
        if hit is None:
            new = self.fixed_dot_result(op, ins, outs, self.rule_of(op))
            if memo_key is not None:
                self.cache.dot_fixes[memo_key] = (ins, outs, new)
        else:
            new = hit[2]
        if new is not None:
            self.apply_dot_fix(op, new, outs[0])

    def fixed_dot_result(self, op, ins: list, outs: list, rule: OpShardingRule | None) -> TensorSharding | None:
        """The dot's new result sharding by the non-full dot fix, if it changes."""
        if rule is None or rule.is_custom:
            return None
        mesh_name = self.choose_mesh(op, ins, outs)
        if mesh_name is None:
            return None
        mesh = self.meshes.meshes[mesh_name]
        projection = ShardingProjection.build(ins, outs, rule, mesh, closed_if_missing=True)
        return self.dot_fix(op, projection, outs, rule, mesh_name, mesh)

    def rule_of(self, op) -> OpShardingRule | None:
        """The op's rule; ops of one structure (values.structure_key) share it."""
        key = structure_key(op)
        if key is None:
            return sharding_rule_for(op, registry=self.rules)
        try:
            return self._rules[key]
        except KeyError:
            found = self._rules[key] = sharding_rule_for(op, registry=self.rules)
            return found

    def _unreduced_result(self, op) -> bool:
        if not len(op.results):
            return False
        sharding = self.sharding(op.results[0])
        return sharding is not None and bool(sharding.unreduced)

    # ------------------------------------------------------------------ mesh (IER:304-359)
    def choose_mesh(self, op, ins: Sequence, outs: Sequence) -> str | None:
        name, mesh = None, None
        for s in (*ins, *outs):
            if s is None:
                continue
            other = self.mesh(s)
            if mesh is None or (not mesh.axes and not mesh.device_ids):
                mesh, name = other, s.mesh_name
                continue
            if not other.axes and not other.device_ids:
                continue
            if other.is_maximal != mesh.is_maximal or other.axes != mesh.axes:
                return None
            if not other.device_ids:
                mesh, name = other, s.mesh_name
        if mesh is None:
            return None
        if name is None:
            # The reference looks the common mesh up as a symbol (and crashes).
            raise ReshardError(op, "shardings with an inlined mesh are not supported here "
                                   "(run sdy-lift-inlined-meshes first)")
        if mesh.is_maximal:
            return None
        counts: dict[str, int] = {}
        best, best_count = name, 0
        for s in (*ins, *outs):
            if not is_fully_replicated(s):
                counts[s.mesh_name] = counts.get(s.mesh_name, 0) + 1
                if counts[s.mesh_name] > best_count:
                    best, best_count = s.mesh_name, counts[s.mesh_name]
        return best

    # ------------------------------------------------------------------ processOp (IER:566-595)
    def process_op(self, op, projection: ShardingProjection, ins, outs, rule: OpShardingRule,
                   mesh_name: str, mesh: Mesh, full: bool) -> AxesPerFactor | None:
        if not full:
            if self._table.has_trait(op, "dot"):
                new = self.dot_fix(op, projection, outs, rule, mesh_name, mesh)
                if new is not None:
                    self.apply_dot_fix(op, new, outs[0])
            return None
        update_ops = {i for i, t in enumerate(projection.operands) if has_overflow(t)}
        update_res = {i for i, t in enumerate(projection.results) if has_overflow(t)}
        if (update_ops or update_res) and self._table.has_trait(op, "reshape"):
            return self.reshape_with_overflow(op, projection, outs, rule, mesh_name, mesh)
        common = find_common_axes(projection, rule, tensor_sizes(op), mesh, self.policy)
        for factor, axes in enumerate(common):
            ops_changed, res_changed = update_sharding(projection, factor, axes)
            update_ops |= ops_changed
            update_res |= res_changed
        self.insert_reshards(op, ins, outs, projection, update_ops, update_res, rule, mesh_name, mesh)
        return common

    def reshard_return(self, ret, func) -> None:
        res_attrs = list(ir.ArrayAttr(func.attributes["res_attrs"])) if "res_attrs" in func.attributes else []
        point = ir.InsertionPoint(ret)
        for i in range(len(ret.operands)):
            target = None
            if i < len(res_attrs):
                d = ir.DictAttr(res_attrs[i])
                if "sdy.sharding" in d:
                    target = codec.tensor_sharding(d["sdy.sharding"])
            self.reshard_to_target(ret, i, target, point, self.full)

    # ------------------------------------------------------------------ data-flow ops and calls (IER:114-157)
    def reshard_data_flow_op(self, op, full: bool) -> None:
        decl = self._table.data_flow(op)
        owners = interfaces.data_flow_result_owners(op) + interfaces.data_flow_block_arg_owners(op)
        for owner in owners:
            target = interfaces.sharding_of(owner)
            is_arg = isinstance(owner, ir.BlockArgument)
            if target is not None and not is_arg and decl.strip_manual_axes:
                target = erase_manual_axes(
                    target, codec.manual_axes(op.attributes[decl.strip_manual_axes]).axes)
            for user, index in _edge_sources(op, decl, owner):
                value = user.operands[index]
                self.reshard_to_target(user, index, target, lambda: self._point_after(value), full)

    def reshard_call(self, call, full: bool) -> None:
        callee_name = ir.FlatSymbolRefAttr(call.attributes["callee"]).value
        callee = _lookup_func(call, callee_name, self.funcs)
        arg_shardings = self.cache.arg_shardings(callee, len(call.operands))
        mesh_of = next((s for s in arg_shardings if s is not None and not self.mesh(s).is_maximal), None)
        if mesh_of is not None:
            targets = [s if s is not None else TensorSharding.replicated_like(
                mesh_of.mesh_name, value_rank(v), is_closed=False, inline_mesh=mesh_of.inline_mesh)
                for s, v in zip(arg_shardings, call.operands)]
        else:
            source = next((s for v in call.operands if (s := self.sharding(v)) is not None
                           and not self.mesh(s).is_maximal), None)
            if source is None:
                return
            targets = [replicated_sharding(source.mesh_name, value_rank(v), source.inline_mesh) for v in call.operands]
        for i, target in enumerate(targets):
            value = call.operands[i]
            self.reshard_to_target(call, i, target, lambda: self._point_after(value), full)

    # ------------------------------------------------------------------ reshape with overflow (IER:429-548)
    def reshape_with_overflow(self, op, projection, outs, rule: OpShardingRule, mesh_name: str,
                              mesh: Mesh) -> AxesPerFactor:
        if not rule.operand_mappings[0] or not rule.result_mappings[0]:
            raise ReshardError(op, "cannot redistribute overflow axes of a reshape to or from a scalar")
        operand, result = projection.operands[0], projection.results[0]
        prefer_input = tensor_sharding_size(operand, mesh) >= tensor_sharding_size(result, mesh)
        best = operand if prefer_input else result
        all_axes: list[AxisRef] = []
        for f in range(rule.num_factors):
            fs = best.factors.get(f)
            if fs is not None:
                all_axes.extend(fs.axes)
                all_axes.extend(fs.overflow)
        redistribute(operand, rule.operand_mappings[0], rule.factor_sizes, mesh, all_axes)
        redistribute(result, rule.result_mappings[0], rule.factor_sizes, mesh, all_axes)
        sizes = rule.factor_sizes
        built_in = operand.to_tensor_sharding(rule.operand_mappings[0], sizes, mesh_name, mesh)
        built_out = result.to_tensor_sharding(rule.result_mappings[0], sizes, mesh_name, mesh)
        legal = ShardingProjection.build([built_in], [built_out], rule, mesh)
        common = greatest_common_prefix_axes(legal, rule.num_factors, mesh)
        for f in range(rule.num_factors):
            update_sharding(projection, f, common[f])
        update_ops, update_res = set(), set()
        new_in = operand.to_tensor_sharding(rule.operand_mappings[0], sizes, mesh_name, mesh)
        if not is_equivalent(self.sharding(op.operands[0]), new_in):
            update_ops.add(0)
        new_out = result.to_tensor_sharding(rule.result_mappings[0], sizes, mesh_name, mesh)
        if not is_equivalent(new_out, outs[0]):
            update_res.add(0)
        ins = [self.sharding(v) for v in op.operands]
        self.insert_reshards(op, ins, outs, projection, update_ops, update_res, rule, mesh_name, mesh)
        return common

    # ------------------------------------------------------------------ the non-full dot fix (IER:201-302)
    def dot_fix(self, op, projection, outs, rule: OpShardingRule, mesh_name: str,
                mesh: Mesh) -> TensorSharding | None:
        """The result sharding that resolves a dot's one conflicting factor by
        the reduction axes of its result (None: no change)."""
        if not outs or outs[0] is None:
            return None
        lhs, rhs, res = projection.operands[0], projection.operands[1], projection.results[0]
        lhs_size, rhs_size = num_elements(op.operands[0]), num_elements(op.operands[1])
        result_size = num_elements(op.results[0])
        conflict, conflict_axes = None, None
        reduction: list[AxisRef] = []
        seen: list[AxisRef] = []
        for f in range(rule.num_factors):
            la = lhs.factors[f].axes if f in lhs.factors else None
            ra = rhs.factors[f].axes if f in rhs.factors else None
            if la is not None and ra is not None:
                axes, limit = la, max(lhs_size, rhs_size)
                if la != ra:
                    return None
                if rule.kind_of(f) == REDUCTION:
                    reduction.extend(axes)
                    continue
            else:
                axes = la if la is not None else ra
                limit = lhs_size if la is not None else rhs_size
                for axis in axes:
                    if any(a.overlaps(axis, mesh) for a in seen):
                        return None
                    seen.append(axis)
            # (a factor the result lacks, e.g. a need-replication contracting one, has no axes there)
            res_axes = res.factors[f].axes if f in res.factors else []
            if res_axes != axes:
                if not axes or conflict is not None or result_size > limit:
                    return None
                conflict, conflict_axes = f, axes
        if conflict is None:
            return None
        res_axes = res.factors[conflict].axes if conflict in res.factors else []
        if not res_axes or res_axes != reduction:
            return None
        res.factors[conflict].axes = list(conflict_axes)
        return res.to_tensor_sharding(rule.result_mappings[0], rule.factor_sizes, mesh_name, mesh)

    def apply_dot_fix(self, op, new: TensorSharding, old: TensorSharding) -> None:
        """The dot's result takes `new`; a reshard after it gives its users `old`."""
        result = op.results[0]
        self.set_sharding(result, new)
        reshard = self._reshard(result, old, ir.InsertionPoint.after(op), op.location)
        result.replace_all_uses_except(reshard.result, reshard)



def _dot_structure(op) -> tuple | None:
    """What the dot fix's decision is a function of, besides the tensor
    shardings: the rule (from the op's `sdy.sharding_rule` alone when it has
    one, else from its structure) and the tensor types."""
    rule = op.attributes.get(SHARDING_RULE_ATTR)
    if rule is None:
        return structure_key(op)
    return rule, tuple([v.type for v in op.operands]), tuple(op.results.types)


# --------------------------------------------------------------------------- data-flow edges, calls


def _edge_sources(op, decl, owner: ir.Value) -> list[tuple[ir.Operation, int]]:
    """(user, operand index) of every source of the edge `owner` owns (getEdgeSources)."""
    if isinstance(owner, ir.BlockArgument):
        return [(op, owner.arg_number)]
    index = owner.result_number
    out = []
    if decl.source_operands and not decl.block_arg_owners:
        out.append((op, index))
    regions = range(len(op.regions)) if decl.source_terminators == ("all",) else decl.source_terminators
    for r in regions:
        out.append((block_terminator(op.regions[r].blocks[0]), index))
    return out


def _lookup_func(op, name: str, funcs: dict | None = None):
    if funcs is not None:
        return funcs.get(name)
    module = operation(op)
    while module.name != "builtin.module":
        module = operation(module.parent)
    for candidate in module.regions[0].blocks[0].operations:
        candidate = operation(candidate)
        if candidate.name == "func.func" and ir.StringAttr(candidate.attributes["sym_name"]).value == name:
            return candidate
    return None
