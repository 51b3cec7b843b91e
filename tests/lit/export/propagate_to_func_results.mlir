// RUN: sdy-dsl opt %s -sdy-propagate-to-func-results -split-input-file | filecheck %s

sdy.mesh @mesh = <["x"=2, "y"=2]>

// The main function's results are left alone; another function's results
// take the shardings of the values it returns.
// CHECK-LABEL: func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-LABEL: func private @callee(
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>}) {
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %1 = call @callee(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y", ?}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A module's only function is its main function, whatever its name.
// CHECK-LABEL: func @only_func(%arg0: tensor<8xf32>) -> tensor<8xf32> {
func.func @only_func(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// A returned value without a sharding clears the result's sharding (other
// result attributes stay).
// CHECK-LABEL: func private @callee(
// CHECK-SAME:    -> (tensor<8xf32> {foo.bar = 1 : i64}) {
func.func private @callee(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>, foo.bar = 1 : i64}) {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0:3 = call @callee(%arg0) : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0 : tensor<8x8xf32>
}

// Returned values keep their sharding wherever their op does: a func
// argument's attribute, a constraint's `sharding`, a manual computation's
// `out_shardings`.
// CHECK-LABEL: func private @callee(
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
// CHECK-SAME:        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
// CHECK-SAME:        tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", ?}]>}) {
func.func private @callee(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %1 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {"y", ?}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %arg0, %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Every non-main function is updated, called or not.
// CHECK-LABEL: func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-LABEL: func private @not_called(
// CHECK-SAME:    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
func.func private @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

func.func private @not_called(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
