/**
 * The class of a table's actions column (with `fixed: "right"`): the visual tests find the column by
 * it and check that its buttons are on screen at phone width while the rest of the table scrolls.
 */
export const TABLE_ACTIONS = "crafter-table-actions";
