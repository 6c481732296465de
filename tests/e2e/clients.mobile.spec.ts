import { PNG } from './support/clients'
import { expect, test } from './support/test'

// The client form and the records list on a phone, in Spanish (issue 11).

test.use({ memberOptions: { access: true } })

test('on a phone, in Spanish: the form, its messages, a saved client and the list', async ({
  page,
  member: _,
}) => {
  await page.goto('/user-details')
  await expect(page.getByRole('heading', { name: 'New client' })).toBeVisible()
  // The feature's own texts follow a language switch too.
  await page.getByTestId('language-select').selectOption('es')
  await expect(page.getByRole('heading', { name: 'Nuevo cliente' })).toBeVisible()
  await expect(page.getByLabel('Fecha de nacimiento (opcional)')).toHaveAttribute(
    'placeholder',
    'DD/MM/AAAA',
  )

  await page.getByRole('button', { name: 'Comenzar' }).click()
  for (const message of [
    'El nombre es obligatorio',
    'El apellido es obligatorio',
    'El correo electrónico es obligatorio',
    'El número de teléfono es obligatorio',
    'La afirmación es obligatoria',
    'Selecciona la imagen para el aura',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible()
  }
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBe(0)
  await page.screenshot({ path: test.info().outputPath('ficha-errores.png'), fullPage: true })

  await page.getByRole('button', { name: 'Analizar imagen del cliente' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analizar imagen del cliente' })
  await dialog
    .getByTestId('photo-file')
    .setInputFiles({ name: 'cara.png', mimeType: 'image/png', buffer: PNG })
  await expect(dialog.getByTestId('photo-preview')).toBeVisible()
  await page.screenshot({ path: test.info().outputPath('dialogo-foto.png') })
  await dialog.getByRole('button', { name: 'Cerrar', exact: true }).last().click()

  await page.getByLabel('Nombre', { exact: true }).fill('Ana')
  await page.getByLabel('Apellido').fill('Gómez')
  await page.getByLabel('Correo electrónico').fill('ana@example.com')
  await page.getByLabel('Número de teléfono').fill('+34 611 22 33 44')
  await page.getByLabel('Fecha de nacimiento (opcional)').fill('23/04/1985')
  await page.getByLabel('Afirmación positiva').fill('Estoy en calma.')
  await page.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Comenzar' }).click()
  await expect(page).toHaveURL(/\/aura-scan$/)

  await page.goto('/aura-user-record')
  const row = page.getByTestId('client-row')
  await expect(row).toContainText('Ana Gómez')
  await page.screenshot({ path: test.info().outputPath('registros.png'), fullPage: true })
  await row.getByRole('link', { name: 'Abrir Ana Gómez' }).click()
  await expect(page.getByLabel('Fecha de nacimiento (opcional)')).toHaveValue('23/04/1985')
})
