/** One renderer per component type (adding a type: its file here plus one line). */

import type { Renderers } from '../renderers.ts';
import { ChartComponent } from './ChartComponent.tsx';
import { ButtonComponent, MarkdownComponent, MediaComponent, TextComponent } from './ContentComponents.tsx';
import { DetailComponent } from './DetailComponent.tsx';
import { FormComponent } from './FormComponent.tsx';
import { InputComponent } from './InputComponent.tsx';
import { GridComponent, TabsComponent } from './LayoutComponents.tsx';
import { ModalComponent } from './ModalComponent.tsx';
import { TableComponent } from './TableComponent.tsx';

export const componentRenderers: Renderers = {
  table: TableComponent,
  detail: DetailComponent,
  form: FormComponent,
  button: ButtonComponent,
  text: TextComponent,
  markdown: MarkdownComponent,
  media: MediaComponent,
  tabs: TabsComponent,
  grid: GridComponent,
  chart: ChartComponent,
  input: InputComponent,
  modal: ModalComponent,
};
