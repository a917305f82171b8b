import type { Meta, StoryObj } from '@storybook/react-vite'
import { http, HttpResponse } from 'msw'
import type { PetstoreSimLoaded, WorkerSimulator } from 'petstore-orders-simulator/storybook'
import { expect } from 'storybook/test'
import { Orders } from '../Orders.tsx'

const meta = {
  title: 'Orders with msw-storybook-addon',
  component: Orders,
  parameters: { petstoreSim: { scenario: 'pending' } },
} satisfies Meta<typeof Orders>
export default meta
type Story = StoryObj<typeof meta>

const simOf = (loaded: Record<string, unknown>) => (loaded as unknown as PetstoreSimLoaded<WorkerSimulator>).petstoreSim

export const __namedExportsOrder = ['ListOverridden', 'SimulatorBehind']

/**
 * A per-story msw handler replaces the simulator's list; the cancel it does
 * not override still reaches the simulator, which has no order 42 (404).
 */
export const ListOverridden: Story = {
  parameters: {
    msw: {
      handlers: {
        orders: [http.get('https://api.petstore.example/v1/store/orders', () => HttpResponse.json([{ id: 42, petId: 7, quantity: 2, status: 'pending' }]))],
      },
    },
  },
  play: async ({ canvas, userEvent, loaded }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel order 42' }))
    await expect(await canvas.findByRole('alert')).toHaveTextContent(/^404 order_not_found: /)
    expect(simOf(loaded).requests({ operation: 'cancelOrder' }).map((entry) => entry.status)).toEqual([404])
    // The project's own handler (preview.ts) answers beside the story's.
    expect(await (await fetch('/api/greeting')).json()).toEqual({ greeting: 'hello from the project' })
  },
}

/** Without an override the simulator answers, and the other story's handler is gone. */
export const SimulatorBehind: Story = {
  play: async ({ canvas, userEvent, loaded }) => {
    await userEvent.click(await canvas.findByRole('button', { name: 'Cancel order 1' }))
    await expect(await canvas.findByText('Order 1 cancelled')).toBeVisible()
    expect(canvas.queryByRole('button', { name: 'Cancel order 42' })).toBeNull()
    expect(simOf(loaded).order(1)?.status).toBe('cancelled')
    expect(await (await fetch('/api/greeting')).json()).toEqual({ greeting: 'hello from the project' })
  },
}
