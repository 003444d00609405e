import { DEFAULT_PHP_VERSION, type PhpVersion } from './php-version';
import { atLeast } from './php-version';

/**
 * Classes and interfaces PHP itself declares in every build (the core, SPL, Date, Reflection), with
 * the version that brought each: a controller of the same name cannot be declared ("Cannot declare
 * class Error, because the name is already in use"), and `class_exists()` finds PHP's. Names
 * compare case-insensitively, as PHP's class names do.
 */
const SINCE: Readonly<Record<string, string>> = Object.fromEntries(
  (
    [
      ['5.0', 'stdClass Exception ErrorException Directory ArrayObject ArrayIterator RecursiveArrayIterator Iterator IteratorAggregate Traversable ArrayAccess Countable Serializable OuterIterator RecursiveIterator SeekableIterator SplObserver SplSubject SplFileInfo SplFileObject SplTempFileObject SplObjectStorage DirectoryIterator FilesystemIterator RecursiveDirectoryIterator GlobIterator IteratorIterator FilterIterator LimitIterator CachingIterator AppendIterator NoRewindIterator InfiniteIterator RegexIterator EmptyIterator MultipleIterator LogicException BadFunctionCallException BadMethodCallException DomainException InvalidArgumentException LengthException OutOfRangeException RuntimeException OutOfBoundsException OverflowException RangeException UnderflowException UnexpectedValueException Reflection ReflectionClass ReflectionMethod ReflectionFunction ReflectionProperty ReflectionException php_user_filter'],
      ['5.2', 'DateTime DateTimeZone'],
      ['5.3', 'Closure DateInterval DatePeriod SplStack SplQueue SplDoublyLinkedList SplHeap SplMinHeap SplMaxHeap SplPriorityQueue SplFixedArray'],
      ['5.4', 'CallbackFilterIterator JsonSerializable SessionHandler SessionHandlerInterface'],
      ['5.5', 'Generator DateTimeImmutable DateTimeInterface'],
      ['7.0', 'Error Throwable TypeError ParseError ArithmeticError DivisionByZeroError AssertionError'],
      ['7.1', 'ArgumentCountError'],
      ['7.3', 'CompileError JsonException'],
      ['7.4', 'WeakReference'],
      ['8.0', 'Attribute Stringable ValueError UnhandledMatchError WeakMap PhpToken'],
      ['8.1', 'Fiber FiberError ReturnTypeWillChange UnitEnum BackedEnum'],
      ['8.2', 'AllowDynamicProperties SensitiveParameter SensitiveParameterValue'],
      ['8.3', 'Override'],
    ] as const
  ).flatMap(([since, names]) => names.split(' ').map((n) => [n.toLowerCase(), `${since}|${n}`])),
);

/** PHP's own class or interface of this name under `php` (the default version when not given): its spelling and the version that brought it. */
export function phpOwnClass(name: string, php: PhpVersion = DEFAULT_PHP_VERSION): { name: string; since: string } | undefined {
  const entry = SINCE[name.toLowerCase()];
  if (entry === undefined) return undefined;
  const [since, spelled] = entry.split('|') as [string, string];
  const [major, minor] = since.split('.').map(Number) as [number, number];
  return atLeast(php, major, minor) ? { name: spelled, since } : undefined;
}

/** PHP's own class a controller file would declare by CodeIgniter's convention, its file name (`controllers/admin/Error.php` → `Error`), if it is one (see phpOwnClass). */
export function phpOwnClassOfFile(file: string, php?: PhpVersion): { name: string; since: string } | undefined {
  return phpOwnClass(file.slice(file.lastIndexOf('/') + 1).replace(/\.php$/i, ''), php);
}
