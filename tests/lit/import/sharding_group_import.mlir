// RUN: sdy-dsl opt %s -sdy-sharding-group-import -split-input-file | filecheck %s

// Groups sharing a tensor merge (transitively, across functions of the
// module), ids are renumbered 0..N-1, and a second op putting the same tensor
// in the same (merged) group is erased.
// {7, 3} share %arg1; {12, 5} share %arg2; {5, 1} share @other's argument.
// CHECK-LABEL: func @merge_and_renumber
// CHECK-NEXT:  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  return
// CHECK-LABEL: func @other
// CHECK-NEXT:  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  return
func.func @merge_and_renumber(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 3 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 12 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 5 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id = 7 : tensor<8xf32>
  return
}

func.func @other(%arg0: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 5 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id = 1 : tensor<8xf32>
  return
}

// -----

// New ids follow first appearance, not the old id values: group 9 comes first
// (and absorbs 2 via %arg0), then 4, then 1.
// CHECK-LABEL: func @ids_follow_first_appearance
// CHECK-NEXT:  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg2 group_id=2 : tensor<8xf32>
// CHECK-NEXT:  return
func.func @ids_follow_first_appearance(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 9 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 4 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 1 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id = 2 : tensor<8xf32>
  return
}

// -----

// When two existing groups merge, the merged group is numbered at the first
// appearance of the group named first by the merging tensor: %arg3 lists 8
// before 5, so {5, 8} is numbered where 8 first appeared, after group 7.
// CHECK-LABEL: func @merged_group_position
// CHECK-NEXT:  sdy.sharding_group %arg0 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg2 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg3 group_id=1 : tensor<8xf32>
// CHECK-NEXT:  return
func.func @merged_group_position(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 5 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %arg2 group_id = 8 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id = 8 : tensor<8xf32>
  sdy.sharding_group %arg3 group_id = 5 : tensor<8xf32>
  return
}

// -----

// Already canonical groups are left alone.
// CHECK-LABEL: func @already_canonical
// CHECK-NEXT:  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
// CHECK-NEXT:  sdy.sharding_group %arg1 group_id=1 : tensor<8xf32>
func.func @already_canonical(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) {
  sdy.sharding_group %arg0 group_id = 0 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id = 1 : tensor<8xf32>
  return
}

// -----

sdy.mesh @mesh = <["a"=2]>

// All values of a group in the same manual computation body are fine.
// CHECK-LABEL: func @group_inside_one_manual_computation
// CHECK:       %[[ABS:.*]] = stablehlo.abs %[[ARG:.*]] : tensor<4xf32>
// CHECK-NEXT:  sdy.sharding_group %[[ARG]] group_id=0 : tensor<4xf32>
// CHECK-NEXT:  sdy.sharding_group %[[ABS]] group_id=0 : tensor<4xf32>
func.func @group_inside_one_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4xf32>
    sdy.sharding_group %arg1 group_id = 3 : tensor<4xf32>
    sdy.sharding_group %1 group_id = 3 : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
