import { referenceRelationName } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import type { FieldDescription } from '@data-platform/shared/fields/field-types';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { Row } from '../store/resource-slices.ts';
import { CellValue } from './cell-value.tsx';
import { recordPath } from './record-routes.ts';

/**
 * A field of a record on its show page: as in lists, except that long text is
 * shown whole and a referenced record is a link to its own show page.
 */
export function FieldValue({ row, name, field }: { row: Row; name: string; field: FieldDescription }) {
  const localized = useLocalizedPath();
  const target = field.type === 'reference' && field.to ? findEntity(field.to) : undefined;
  if (target) {
    const related = row[referenceRelationName(name)] as Row | null | undefined;
    const shown = related?.[target.display];
    if (shown === undefined || shown === null) return row[name] == null ? null : <>#{String(row[name])}</>;
    const path = recordPath(target.name, related?.id ?? String(row[name]), 'show');
    return path ? (
      <Anchor component={Link} to={localized(path)}>
        {String(shown)}
      </Anchor>
    ) : (
      String(shown)
    );
  }
  if (field.type === 'longText' && typeof row[name] === 'string') {
    return <Text style={{ whiteSpace: 'pre-wrap' }}>{row[name]}</Text>;
  }
  return <CellValue row={row} column={{ name, field }} />;
}
