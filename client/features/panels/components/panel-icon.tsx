import {
  Droplets,
  Feather,
  Flame,
  Flower,
  Gem,
  HandHeart,
  Heart,
  Leaf,
  type LucideIcon,
  type LucideProps,
  Moon,
  Palette,
  Scale,
  Sparkles,
  Sprout,
  Sunrise,
  Target,
  Trees,
  Wheat,
} from 'lucide-react'

// The icons the seeded panels name, imported one by one: importing lucide by name at run time
// would pull every icon into the bundle.
const ICONS: Record<string, LucideIcon> = {
  Feather,
  Flame,
  Flower,
  Gem,
  HandHeart,
  Heart,
  Leaf,
  Moon,
  Palette,
  Scale,
  Sparkles,
  Sprout,
  Sunrise,
  Target,
  Trees,
  Wheat,
}

export function PanelIcon({ name, ...props }: { name: string } & LucideProps) {
  const Icon = ICONS[name] ?? Droplets
  return <Icon aria-hidden {...props} />
}
