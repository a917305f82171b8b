import type { Meta, StoryObj } from '@storybook/react-vite'
import { type PetstoreSimLoaded, type PetstoreSimParameters, petstoreArgTypes, type WorkerSimulator } from 'petstore-orders-simulator/storybook'
import { expect, waitFor } from 'storybook/test'
import { Orders } from './Orders.tsx'

const meta = {
  title: 'Orders',
  component: Orders,
  // The scenario as a select (and a latency slider) in the Controls panel.
  argTypes: petstoreArgTypes(),
} satisfies Meta<typeof Orders>
export default meta
type Story = StoryObj<typeof meta>

/** The simulator the loader reset for this render. */
const simOf = (loaded: Record<string, unknown>) => (loaded as unknown as PetstoreSimLoaded<WorkerSimulator>).petstoreSim
const state = (petstoreSim: PetstoreSimParameters) => ({ petstoreSim })

// The order the test runner takes them in; test/storybook/run-storybook-tests.mjs runs them reversed too.
export const __namedExportsOrder = ['Pending', 'Shipped', 'Empty', 'Slow', 'Failing', 'ShippedFromControls', 'UnknownScenario']

/** Three pending orders: cancelling one gives 204 and the list shows it cancelled. */
export const Pending: Story = {
  parameters: state({ scenario: 'pending' }),
  play: async ({ canvas, userEvent, loaded }) => {
    const sim = simOf(loaded)
    // Nothing of the stories before: no latency, no faults, order 1 still pending, only this story's list request.
    expect(sim.latency()).toBeNull()
    expect(sim.faults()).toEqual([])
    await expect(await canvas.findByTestId('status-1')).toHaveTextContent('pending')
    await userEvent.click(canvas.getByRole('button', { name: 'Cancel order 1' }))
    await expect(await canvas.findByText('Order 1 cancelled')).toBeVisible()
    await waitFor(() => expect(canvas.getByTestId('status-1')).toHaveTextContent('cancelled'))
    expect(sim.order(1)?.status).toBe('cancelled')
    expect(sim.requests({ operation: 'cancelOrder' }).map((entry) => entry.status)).toEqual([204])
  },
}

/** Three shipped orders: cancelling one gives 409, shown, and nothing changes. */
export const Shipped: Story = {
  parameters: state({ scenario: 'shipped' }),
  play: async ({ canvas, userEvent, loaded }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel order 1' }))
    await expect(await canvas.findByRole('alert')).toHaveTextContent(/^409 order_already_shipped: /)
    expect(canvas.getByTestId('status-1')).toHaveTextContent('shipped')
    expect(simOf(loaded).order(1)?.status).toBe('shipped')
  },
}

/** No orders at all: the component says so, and offers nothing to cancel. */
export const Empty: Story = {
  parameters: state({ scenario: 'missing' }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No orders')).toBeVisible()
    expect(canvas.queryAllByRole('button', { name: /^Cancel order/ })).toEqual([])
  },
}

/** Every answer takes 400 ms: the loading state shows first, then the rows; cancelling still works. */
export const Slow: Story = {
  parameters: state({ scenario: 'pending', latency: 400 }),
  play: async ({ canvas, userEvent, loaded }) => {
    expect(simOf(loaded).latency()).toEqual({ default: { min: 400, max: 400 } })
    await expect(canvas.getByText('Loading orders…')).toBeVisible()
    const cancel = await canvas.findByRole('button', { name: 'Cancel order 2' }, { timeout: 3000 })
    expect(canvas.queryByText('Loading orders…')).toBeNull()
    await userEvent.click(cancel)
    await expect(canvas.getByRole('button', { name: 'Cancel order 2' })).toHaveTextContent('Cancelling…')
    await expect(await canvas.findByText('Order 2 cancelled', {}, { timeout: 3000 })).toBeVisible()
  },
}

/** Cancelling meets a 503 fault: the Error body is shown, and the order stays pending. */
export const Failing: Story = {
  parameters: state({ scenario: 'pending', faults: [{ operation: 'cancelOrder', kind: 'status', status: 503 }] }),
  play: async ({ canvas, userEvent, loaded }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel order 1' }))
    await expect(await canvas.findByRole('alert')).toHaveTextContent(/^503 service_unavailable: /)
    expect(canvas.getByTestId('status-1')).toHaveTextContent('pending')
    expect(simOf(loaded).order(1)?.status).toBe('pending')
  },
}

/** The scenario chosen in the Controls panel (the petstoreScenario arg) wins over the parameters. */
export const ShippedFromControls: Story = {
  parameters: state({ scenario: 'pending' }),
  args: { petstoreScenario: 'shipped' },
  play: async ({ canvas, userEvent, loaded }) => {
    expect(simOf(loaded).scenario().name).toBe('shipped')
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel order 3' }))
    await expect(await canvas.findByRole('alert')).toHaveTextContent(/^409 order_already_shipped: /)
  },
}

/**
 * A misspelt scenario: Storybook shows the one error, listing the scenarios,
 * in place of the story. Not a test (it fails on purpose); the runner opens it in Storybook and reads the error.
 */
export const UnknownScenario: Story = {
  tags: ['!test'],
  parameters: state({ scenario: 'shiped' }),
}
