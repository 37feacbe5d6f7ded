import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Row } from '../store/resource-slices.ts';
import { CellValue } from './cell-value.tsx';
import type { Column } from './columns.ts';

/**
 * The rows a record's panel shows (its related records, a fund's cash flows):
 * a heading per described column, the first cell of a row naming it. Past
 * three columns the table scrolls sideways rather than squeeze on a narrow
 * screen. A panel with no rows, none being read, says `none` instead.
 */
export function PanelTable({
  title,
  none,
  fetching,
  rows,
  rowKey = (row) => row.id,
  columns,
  label,
  name = (row, column) => <CellValue row={row} column={column} />,
  more,
  actions,
  footer,
}: {
  /** The table's caption, for screen readers: the panel's heading says it to the eye. */
  title: string;
  none: string;
  /** Rows are being read: no `none` while they are. */
  fetching: boolean;
  rows: Row[];
  rowKey?: (row: Row) => string | number;
  columns: Column[];
  /** A column's heading. */
  label: (name: string, field: FieldDescription) => string;
  /** What the first cell shows (a link to the record, say); the row's value by default. */
  name?: (row: Row, column: Column) => ReactNode;
  /** Columns after the described ones: their headings, and a row's cells. */
  more?: { heads: ReactNode; cells: (row: Row) => ReactNode };
  /** A narrow last column of a row's buttons, its heading for screen readers only. */
  actions?: { label: string; cell: (row: Row) => ReactNode };
  /** The table's footer (`Table.Tfoot`), such as totals. */
  footer?: ReactNode;
}) {
  if (rows.length === 0 && !fetching) {
    return (
      <Text c="dimmed" size="sm">
        {none}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={columns.length > 3 ? 640 : 0} type="native">
      <Table verticalSpacing={4}>
        <VisuallyHidden component="caption">{title}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.name} scope="col">
                {label(column.name, column.field)}
              </Table.Th>
            ))}
            {more?.heads}
            {actions ? (
              <Table.Th w={40} scope="col">
                <VisuallyHidden>{actions.label}</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column, index) =>
                index === 0 ? (
                  <Table.Th key={column.name} scope="row" fw="normal">
                    {name(row, column)}
                  </Table.Th>
                ) : (
                  <Table.Td key={column.name}>
                    <CellValue row={row} column={column} />
                  </Table.Td>
                ),
              )}
              {more?.cells(row)}
              {actions ? <Table.Td w={40}>{actions.cell(row)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
        {footer}
      </Table>
    </Table.ScrollContainer>
  );
}
