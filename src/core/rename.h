/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal names in a reserved namespace (METIS's rename.h, libuv's uv__).
 * Inside the library the code uses readable folder-prefixed names
 * (contract_run, costmodel_loads_create, io_parse_double, ...); the linker
 * sees them as minex__contract_run etc., so that libminex.a and libminex.so
 * define only minex_ (public) and minex__ (internal) symbols and cannot
 * collide with a user's own `mesh_check` or `core_error`. Every internal
 * header includes this file first. A new internal cross-file function gets
 * a line here; the ctest `symbols_namespace` (tests/core/symbols_check.sh)
 * fails when one is missing. Sorted. */
#ifndef MINEX_CORE_RENAME_H
#define MINEX_CORE_RENAME_H
#define contract_acc_table minex__contract_acc_table
#define contract_check minex__contract_check
#define contract_find_slow minex__contract_find_slow
#define contract_fine_reps minex__contract_fine_reps
#define contract_freeze minex__contract_freeze
#define contract_gather minex__contract_gather
#define contract_level_alloc minex__contract_level_alloc
#define contract_level_free minex__contract_level_free
#define contract_level_next minex__contract_level_next
#define contract_run minex__contract_run
#define contract_set_owner minex__contract_set_owner
#define contract_undo minex__contract_undo
#define contract_ws_create minex__contract_ws_create
#define contract_ws_destroy minex__contract_ws_destroy
#define core_check_options minex__core_check_options
#define core_check_part minex__core_check_part
#define core_error minex__core_error
#define core_error_clear minex__core_error_clear
#define core_error_prefix minex__core_error_prefix
#define core_wtime minex__core_wtime
#define costmodel_apply minex__costmodel_apply
#define costmodel_argmin minex__costmodel_argmin
#define costmodel_check_args minex__costmodel_check_args
#define costmodel_eval_move minex__costmodel_eval_move
#define costmodel_loads_check minex__costmodel_loads_check
#define costmodel_loads_create minex__costmodel_loads_create
#define costmodel_loads_destroy minex__costmodel_loads_destroy
#define costmodel_low_rebuild minex__costmodel_low_rebuild
#define costmodel_min_var minex__costmodel_min_var
#define costmodel_snapshot_free minex__costmodel_snapshot_free
#define costmodel_snapshot_restore minex__costmodel_snapshot_restore
#define costmodel_snapshot_take minex__costmodel_snapshot_take
#define costmodel_tree_set minex__costmodel_tree_set
#define drum_check_node minex__drum_check_node
#define drum_model_check minex__drum_model_check
#define drum_sample_between minex__drum_sample_between
#define drum_set_strings minex__drum_set_strings
#define drum_snapshot_free minex__drum_snapshot_free
#define drum_snapshot_read minex__drum_snapshot_read
#define drum_xml_attr_text minex__drum_xml_attr_text
#define drum_xml_build_model minex__drum_xml_build_model
#define drum_xml_elem_line minex__drum_xml_elem_line
#define expand_run minex__expand_run
#define io_atomic_abort minex__io_atomic_abort
#define io_atomic_commit minex__io_atomic_commit
#define io_atomic_open minex__io_atomic_open
#define io_config_schema minex__io_config_schema
#define io_config_schema_len minex__io_config_schema_len
#define io_format_double minex__io_format_double
#define io_locale_c minex__io_locale_c
#define io_locale_restore minex__io_locale_restore
#define io_number_problem minex__io_number_problem
#define io_parse_double minex__io_parse_double
#define io_parse_i64 minex__io_parse_i64
#define io_reader_close minex__io_reader_close
#define io_reader_next minex__io_reader_next
#define io_reader_open minex__io_reader_open
#define io_rest_blank minex__io_rest_blank
#define io_xml_capture_begin minex__io_xml_capture_begin
#define io_xml_capture_end minex__io_xml_capture_end
#define io_xml_capture_error minex__io_xml_capture_error
#define mesh_adopt minex__mesh_adopt
#define mesh_check minex__mesh_check
#define mesh_choose_kind minex__mesh_choose_kind
#define mesh_read_gmsh minex__mesh_read_gmsh
#define mesh_read_medit minex__mesh_read_medit
#define mesh_reserve minex__mesh_reserve
#define partition_best_move minex__partition_best_move
#define partition_check_phase minex__partition_check_phase
#define partition_ctx_check minex__partition_ctx_check
#define partition_ctx_create minex__partition_ctx_create
#define partition_ctx_destroy minex__partition_ctx_destroy
#define partition_execute minex__partition_execute
#define partition_gather_owners minex__partition_gather_owners
#define partition_heap_check minex__partition_heap_check
#define partition_heap_create minex__partition_heap_create
#define partition_heap_destroy minex__partition_heap_destroy
#define partition_heap_pop minex__partition_heap_pop
#define partition_heap_precedes_top minex__partition_heap_precedes_top
#define partition_heap_remove minex__partition_heap_remove
#define partition_heap_set minex__partition_heap_set
#define partition_run minex__partition_run
#define policy_feedback_check minex__policy_feedback_check

#endif
