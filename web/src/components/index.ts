/** The shared building blocks every screen uses. */
export { Button, type ButtonProps } from './Button.tsx';
export { type DataColumn, DataTable, type DataTableProps } from './DataTable.tsx';
export { Dialog, type DialogProps } from './Dialog.tsx';
export { closeMenuOf, DisclosureMenu, type DisclosureMenuProps } from './DisclosureMenu.tsx';
export { EmptyState } from './EmptyState.tsx';
export { ErrorBanner } from './ErrorBanner.tsx';
export { Field, type FieldControlProps, type FieldProps } from './Field.tsx';
export { ListTable, type ListTableProps } from './ListTable.tsx';
export { type TabItem, Tabs } from './Tabs.tsx';
export { ToastProvider, useToast } from './Toast.tsx';
export { useAsync } from './useAsync.ts';
export { type Confirmation, useConfirmation } from './useConfirmation.ts';
export { dueSoon, refreshIntervalMs, useRefreshWhile } from './useRefreshWhile.ts';
export { VersionPairPicker } from './VersionPairPicker.tsx';
