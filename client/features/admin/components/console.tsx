import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { AuditLog } from './audit-log'
import { Codes } from './codes'
import { Jobs } from './jobs'
import { Media } from './media'
import { MemberPage } from './member-page'
import { MembersList } from './members-list'
import { Overview } from './overview'
import { Prices } from './prices'

const VIEWS = ['overview', 'members', 'codes', 'prices', 'media', 'jobs', 'audit'] as const
type View = (typeof VIEWS)[number]
const isView = (value: string | null): value is View =>
  value !== null && (VIEWS as readonly string[]).includes(value)

/**
 * The console once the second factor is passed: the overview, the members, or the audit log; a
 * member's own page. Where the operator is lives in the address (`?member=…`, `?view=audit`, the search), so
 * Back returns to the list as it was, and a member's page can be opened in another tab.
 */
export function Console() {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const member = params.get('member')
  if (member) return <MemberPage id={member} />
  const asked = params.get('view')
  const view: View = isView(asked) ? asked : 'overview'
  return (
    <>
      <nav
        aria-label={t('admin.nav.label')}
        className="flex flex-wrap gap-x-1 border-b border-slate-200"
      >
        {VIEWS.map((name) => (
          <Link
            key={name}
            to={name === 'overview' ? '/admin' : `/admin?view=${name}`}
            aria-current={view === name ? 'page' : undefined}
            className={`-mb-px border-b-2 px-2.5 py-2 font-medium sm:px-3 ${
              view === name
                ? 'border-brand-600 text-brand-800'
                : 'border-transparent text-slate-600 hover:text-brand-700'
            }`}
          >
            {t(`admin.nav.${name}`)}
          </Link>
        ))}
      </nav>
      {view === 'overview' ? (
        <Overview />
      ) : view === 'members' ? (
        <MembersList />
      ) : view === 'codes' ? (
        <Codes />
      ) : view === 'prices' ? (
        <Prices />
      ) : view === 'media' ? (
        <Media />
      ) : view === 'jobs' ? (
        <Jobs />
      ) : (
        <AuditLog />
      )}
    </>
  )
}
